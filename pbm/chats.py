"""The chats spite knows, how many characters one message of each holds, and the player's choice of chat.

A turn code is cut in parts that each fit one message of the player's chat (pbm/transport/code.py): `spite chat
NAME` keeps the choice in the spite home (chat.toml), `--chat NAME` overrides it for one run. Each figure below names
where it comes from; the README's *Chats and their limits* lists them too. Where a figure is unsure, spite makes its
parts smaller than it (`chars`): a part that is too big is cut by the chat, a part that is small only costs a message.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from pbm.errors import SpiteError
from pbm.home import write_atomic
from pbm.i18n import _, os_reason
from pbm.shown import cut, plain

CHOICE_FILE = "chat.toml"
_MOST_BYTES = 4096  # a chat.toml spite writes is one short line: anything much longer is not one of its files


class ChatError(SpiteError):
    """An unknown chat name, or a chat.toml in the spite home that spite cannot read."""


@dataclass(frozen=True)
class Chat:
    """One chat: its name as typed (`spite chat whatsapp`), its name as shown, how many characters one message holds
    (`limit`, as its source gives it), how many spite puts in one part of a turn code (`chars`), and the source."""

    name: str
    title: str
    limit: int
    chars: int
    source: str


# Each figure as its source states it; `chars` is less than `limit` only where the figure is unsure or counts more than
# the characters typed. The parts spite writes hold at most `chars` characters even when every line ends in CRLF.
CHATS: dict[str, Chat] = {
    chat.name: chat
    for chat in (
        # WhatsApp publishes no limit; 65,536 characters a message is the figure reported by those who measured it
        Chat("whatsapp", "WhatsApp", 65_536, 65_536, "https://www.engagespark.com/support/whatsapp-business-limits/"),
        # the Bot API's limit, which the apps share: "1-4096 characters after entities parsing"
        Chat("telegram", "Telegram", 4_096, 4_096, "https://core.telegram.org/bots/api#sendmessage"),
        Chat("discord", "Discord", 2_000, 2_000, "https://www.discordia.me/en/server-limits"),
        Chat(
            "discord-nitro",
            "Discord Nitro",
            4_000,
            4_000,
            "https://sapphirejs.dev/docs/Documentation/api-utilities/@sapphire/discord-utilities/variables/MessageLimits/",
        ),
        # 20,000 characters a message; what is longer does not show (fbchat-dev/fbchat#44)
        Chat("messenger", "Messenger", 20_000, 20_000, "https://helpdocs.pitcher.com/docs/messenger-message-management"),
        # Signal's apps send the text past 2 KiB as an attachment ("Read more"): a code in one message stays within it
        Chat("signal", "Signal", 2_000, 2_000, "https://github.com/mautrix/signal/pull/667"),
        # 40,000 characters are kept, but Slack may break a message past 4,000 into several: 4,000 it is
        Chat("slack", "Slack", 4_000, 4_000, "https://api.slack.com/changelog/2018-04-truncating-really-long-messages"),
        # 153 characters a segment of a long SMS, and 6 segments the most that phones join reliably: 918
        Chat("sms", "SMS", 918, 918, "https://helpdesk.fonedynamics.com/support/solutions/articles/17000105417-sms-segmentation"),
        # iMessage has no published limit ("no limit to how long an iMessage can be"): spite's parts stay at 20,000
        Chat(
            "imessage",
            "iMessage",
            65_536,
            20_000,
            "https://9to5mac.com/2018/08/27/iphone-how-to-enable-character-counter-in-the-messages-app/",
        ),
        # "Maximum length of the field is 4096" (Google Chat's own error, text_body)
        Chat("google-chat", "Google Chat", 4_096, 4_096, "https://github.com/cloudflare/GHC-Errbot/issues/10"),
        # about 28 KB a message, counted in UTF-16 (2 bytes a character) with the HTML Teams wraps each line in: 14,336
        # characters at most; 14,600 plain characters measured; spite's parts stay at 10,000 for the HTML of its lines
        Chat("teams", "Microsoft Teams", 14_336, 10_000, "https://supersimple365.com/what-is-the-message-length-for-microsoft-teams-chat/"),
        # the Messaging API's text message: "Max character limit: 5000"
        Chat("line", "LINE", 5_000, 5_000, "https://developers.line.biz/en/reference/messaging-api/#text-message"),
        # the REST Bot API's text message (7,000 characters), as Infobip documents it
        Chat("viber", "Viber", 7_000, 7_000, "https://www.infobip.com/docs/viber/bots/message-types"),
    )
}
DEFAULT = CHATS["discord"]  # no chat chosen: 2,000 characters a part, which every chat above but SMS takes


_ALIASES = {"microsoftteams": "teams", "msteams": "teams", "facebookmessenger": "messenger", "nitro": "discord-nitro"}
_KEYS = {name.replace("-", ""): chat for name, chat in CHATS.items()} | {alias: CHATS[name] for alias, name in _ALIASES.items()}


def find(name: str) -> Chat:
    """The chat called `name` (in any case, with or without spaces, hyphens or underscores, as "Google Chat" or
    google_chat); ChatError naming the known ones otherwise."""
    chat = _KEYS.get("".join(name.lower().replace("-", " ").replace("_", " ").split()))
    if chat is None:
        known = ", ".join(CHATS)
        # TRANSLATORS: {name} is what the player typed; {known} the names of the chats spite knows (never translated)
        raise ChatError(_("spite knows no chat called '{name}': it knows {known}").format(name=cut(plain(name)), known=known))
    return chat


def choice_path(home: Path) -> Path:
    return Path(home) / CHOICE_FILE


def chosen(home: Path) -> Chat | None:
    """The chat the player chose with `spite chat NAME` (None if none); ChatError if chat.toml cannot be read."""
    path = choice_path(home)
    try:
        with open(path, "rb") as f:
            data = f.read(_MOST_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as e:
        # TRANSLATORS: {file} is the file that keeps the chosen chat; {error} the system's words for what went wrong
        raise ChatError(_("cannot read {file}: {error}").format(file=path, error=os_reason(e))) from e
    # TRANSLATORS: {file} is the file in the spite home that keeps the chosen chat (chat.toml)
    damaged = _("{file} is damaged: choose your chat again with spite chat NAME").format(file=path)
    if len(data) > _MOST_BYTES:
        raise ChatError(damaged)
    try:
        name = tomllib.loads(data.decode("utf-8")).get("chat")
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ChatError(damaged) from e
    if not isinstance(name, str):
        raise ChatError(damaged)
    return find(name)


def choose(home: Path, chat: Chat) -> Path:
    """Keep `chat` as the player's chat in the spite home (chat.toml, written atomically); returns the file's path."""
    path = choice_path(home)
    # the file's own comment: a file's contents are in no language
    text = f'# the chat you paste turn codes into: written by "spite chat" (spite chat NAME changes it)\nchat = "{chat.name}"\n'
    write_atomic(path, text.encode("utf-8"))
    return path
