"""The fair-dealing protocol (docs/protocol.md): group arithmetic, proofs, the deal and the turns; no files, no terminal."""
