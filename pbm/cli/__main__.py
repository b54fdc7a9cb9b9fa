"""`python -m pbm.cli`: the spite command, as the console script runs it."""

from pbm.launch import main

main()
