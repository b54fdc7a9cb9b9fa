"""The mail providers spite knows: their servers, which ``spite mail setup`` fills in from the address's domain.

Each is a large provider that lets a program such as spite log in to IMAP and SMTP with a password, mostly an app
password made in the account's security settings. The page each entry was checked against is named beside it.
Left out, and why: Outlook.com, Hotmail, Live and MSN (:data:`NO_PASSWORDS`: since 16 September 2024 they take
only OAuth from other programs, never a password); Zoho (its servers depend on the account's data centre, .com, .eu,
.in, ..., which the address does not tell); QQ and web.de (their IMAP login is the address without its domain, and
spite logs in to both servers with one name).
"""

from __future__ import annotations

from engine._frozen import frozen_value
from pbm.i18n import N_


@frozen_value(slots=False)
class Provider:
    """A mail provider's servers, the domains of its addresses, and what a player does there first."""

    name: str  # what --provider takes: lower case, in no language
    title: str  # the provider as its customers know it
    domains: tuple[str, ...]  # lower case; a custom domain hosted there is named with --provider
    smtp_host: str
    smtp_port: int
    smtp_security: str
    imap_host: str
    imap_port: int
    imap_security: str
    first: str  # N_(): what to do at the provider before spite logs in (an app password, IMAP switched on)


# What a player does at a provider before spite can log in there, said when setup fills in its servers.
# TRANSLATORS: {provider} is a mail provider's name, as Gmail or Yahoo Mail
_APP_PASSWORD = N_("{provider} wants an app password for spite, made in the account's security settings: not your usual password.")
# TRANSLATORS: {provider} is a mail provider's name, as GMX
_IMAP_ON = N_("Allow POP3 and IMAP access once in the settings of your {provider} mailbox first.")
# TRANSLATORS: {provider} is a mail provider's name, as mail.com
_PREMIUM = N_("{provider} opens IMAP to its Premium accounts only: allow POP3 and IMAP access in its settings first.")
# TRANSLATORS: {provider} is a mail provider's name, as Yandex Mail
_YANDEX = N_("{provider} wants IMAP allowed in its mail settings and an app password for spite, made in the account's settings.")
# TRANSLATORS: {provider} is a mail provider's name, as Mail.ru
_MAIL_RU = N_("{provider} wants a password for external apps, made in the account's security settings: not your usual password.")


# Fastmail's own domains (an address at any of them logs in to the same servers), from
# https://www.fastmail.com/about/ourdomains/ as listed by https://github.com/chatmail/provider-db/blob/master/_providers/fastmail.md
def _listed(text: str) -> tuple[str, ...]:
    """The domains of a space-separated list (long lists read best as text)."""
    return tuple(text.split())


_FASTMAIL = _listed(
    "123mail.org 150mail.com 150ml.com 16mail.com 2-mail.com 4email.net 50mail.com airpost.net allmail.net bestmail.us "
    "cluemail.com elitemail.org emailcorner.net emailengine.net emailengine.org emailgroups.net emailplus.org emailuser.net "
    "eml.cc f-m.fm fast-email.com fast-mail.org fastem.com fastemail.us fastemailer.com fastest.cc fastimap.com fastmail.cn "
    "fastmail.co.uk fastmail.com fastmail.com.au fastmail.de fastmail.es fastmail.fm fastmail.fr fastmail.im fastmail.in "
    "fastmail.jp fastmail.mx fastmail.net fastmail.nl fastmail.org fastmail.se fastmail.to fastmail.tw fastmail.uk "
    "fastmail.us fastmailbox.net fastmessaging.com fea.st fmail.co.uk fmailbox.com fmgirl.com fmguy.com ftml.net h-mail.us "
    "hailmail.net imap-mail.com imap.cc imapmail.org inoutbox.com internet-e-mail.com internet-mail.org internetemails.net "
    "internetmailing.net jetemail.net justemail.net letterboxes.org mail-central.com mail-page.com mailandftp.com mailas.com "
    "mailbolt.com mailc.net mailcan.com mailforce.net mailftp.com mailhaven.com mailingaddress.org mailite.com mailmight.com "
    "mailnew.com mailsent.net mailservice.ms mailup.net mailworks.org messagingengine.com ml1.net mm.st myfastmail.com "
    "mymacmail.com nospammail.net ownmail.net petml.com postinbox.com postpro.net proinbox.com promessage.com realemail.net "
    "reallyfast.biz reallyfast.info rushpost.com sent.as sent.at sent.com speedpost.net speedymail.org ssl-mail.com "
    "swift-mail.com the-fastest.net the-quickest.com theinternetemail.com veryfast.biz veryspeedy.net warpmail.net xsmail.com "
    "yepmail.net your-mail.com"
)

PROVIDERS: tuple[Provider, ...] = (
    # https://developers.google.com/gmail/oauth_overview ("IMAP, POP and SMTP": imap.gmail.com:993 needs SSL; smtp.gmail.com
    # 465 for SSL, 587 for STARTTLS); the domains and the app password (made at https://myaccount.google.com/apppasswords):
    # https://github.com/chatmail/provider-db/blob/master/_providers/gmail.md (checked 2024-08)
    Provider("gmail", "Gmail", ("gmail.com", "googlemail.com"), "smtp.gmail.com", 465, "tls", "imap.gmail.com", 993, "tls", _APP_PASSWORD),
    # https://www.fastmail.com/help/technical/servernamesandports.html (SSL/TLS, not STARTTLS; an app password only)
    Provider("fastmail", "Fastmail", _FASTMAIL, "smtp.fastmail.com", 465, "tls", "imap.fastmail.com", 993, "tls", _APP_PASSWORD),
    # https://support.apple.com/en-us/102525 (iCloud Mail server settings), as
    # https://github.com/thunderbird/autoconfig/blob/master/ispdb/me.com.xml gives it: SMTP 587 STARTTLS, IMAP 993 SSL. Apple
    # names the IMAP login without @icloud.com but takes the whole address too ("try using the full address"), as SMTP wants.
    Provider(
        "icloud",
        "iCloud Mail",
        ("icloud.com", "me.com", "mac.com"),
        *("smtp.mail.me.com", 587, "starttls", "imap.mail.me.com", 993, "tls"),
        _APP_PASSWORD,
    ),
    # https://github.com/chatmail/provider-db/blob/master/_providers/yahoo.md (checked 2025-09: these domains, SMTP 465 and
    # IMAP 993, SSL, an app password from https://login.yahoo.com/account/security); Thunderbird's list is the same
    # (https://github.com/thunderbird/autoconfig, ispdb yahoo.com). yahoo.co.jp is Yahoo Japan, another company.
    Provider(
        "yahoo",
        "Yahoo Mail",
        (
            *("yahoo.com", "myyahoo.com", "ymail.com", "rocketmail.com", "yahoo.co.uk", "yahoo.fr", "yahoo.de", "yahoo.it"),
            *("yahoo.es", "yahoo.se", "yahoo.co.nz", "yahoo.com.au", "yahoo.com.ar", "yahoo.com.br", "yahoo.com.mx"),
        ),
        *("smtp.mail.yahoo.com", 465, "tls", "imap.mail.yahoo.com", 993, "tls"),
        _APP_PASSWORD,
    ),
    # https://github.com/thunderbird/autoconfig/blob/master/ispdb/aol.com.xml (its brands and country domains; SMTP 465,
    # IMAP 993, SSL), after https://help.aol.com/articles/how-do-i-use-other-email-applications-to-send-and-receive-my-aol-mail;
    # the app password: https://github.com/chatmail/provider-db/blob/master/_providers/aol.md
    Provider(
        "aol",
        "AOL Mail",
        (
            *("aol.com", "aim.com", "netscape.net", "netscape.com", "compuserve.com", "cs.com", "wmconnect.com", "aol.de"),
            *("aol.it", "aol.fr", "aol.es", "aol.se", "aol.co.uk", "aol.co.nz", "aol.com.au", "aol.com.ar", "aol.com.br", "aol.com.mx"),
        ),
        *("smtp.aol.com", 465, "tls", "imap.aol.com", 993, "tls"),
        _APP_PASSWORD,
    ),
    # https://github.com/thunderbird/autoconfig/blob/master/ispdb/gmx.net.xml (mail.gmx.net 465 SSL, imap.gmx.net 993 SSL;
    # IMAP allowed once at https://hilfe.gmx.net/pop-imap/einschalten.html); gmx.com has servers of its own, below
    Provider(
        "gmx",
        "GMX",
        ("gmx.net", "gmx.de", "gmx.at", "gmx.ch", "gmx.eu", "gmx.biz", "gmx.org", "gmx.info"),
        *("mail.gmx.net", 465, "tls", "imap.gmx.net", 993, "tls"),
        _IMAP_ON,
    ),
    # https://github.com/thunderbird/autoconfig/blob/master/ispdb/gmx.com.xml (mail.gmx.com 465 SSL, imap.gmx.com 993 SSL);
    # IMAP allowed once: https://support.gmx.com/pop-imap/toggle.html
    Provider(
        "gmx.com",
        "GMX",
        (
            *("gmx.com", "gmx.us", "gmx.co.uk", "gmx.es", "gmx.fr", "gmx.ca", "gmx.co.in", "gmx.com.br", "gmx.ie", "gmx.it"),
            *("gmx.li", "gmx.ph", "gmx.pt", "gmx.se", "gmx.sg", "gmx.com.tr", "gmx.tm"),
        ),
        *("mail.gmx.com", 465, "tls", "imap.gmx.com", 993, "tls"),
        _IMAP_ON,
    ),
    # https://github.com/thunderbird/autoconfig/blob/master/ispdb/mail.com.xml (its "big domains"; smtp.mail.com 465 SSL,
    # imap.mail.com 993 SSL); IMAP for Premium accounts only, allowed at https://support.mail.com/pop-imap/toggle.html
    # (https://github.com/chatmail/provider-db/blob/master/_providers/mail.com.md, checked 2024-03)
    Provider(
        "mail.com",
        "mail.com",
        (
            *("mail.com", "mail.org", "email.com", "post.com", "usa.com", "accountant.com", "consultant.com", "dr.com"),
            *("engineer.com", "cheerful.com", "techie.com", "linuxmail.org", "europe.com", "london.com", "uymail.com"),
            *("myself.com", "iname.com", "writeme.com"),
        ),
        *("smtp.mail.com", 465, "tls", "imap.mail.com", 993, "tls"),
        _PREMIUM,
    ),
    # https://github.com/chatmail/provider-db/blob/master/_providers/yandex.ru.md (smtp.yandex.com 465, imap.yandex.com
    # 993, SSL; IMAP allowed at https://yandex.com/support/mail/mail-clients/others.html); app passwords:
    # https://yandex.com/support/passport/authorization/app-passwords.html
    Provider(
        "yandex",
        "Yandex Mail",
        ("yandex.com", "yandex.ru", "ya.ru", "yandex.by", "yandex.kz", "yandex.ua", "narod.ru"),
        *("smtp.yandex.com", 465, "tls", "imap.yandex.com", 993, "tls"),
        _YANDEX,
    ),
    # https://github.com/chatmail/provider-db/blob/master/_providers/mail.ru.md (smtp.mail.ru 465, imap.mail.ru 993, SSL;
    # a password for external apps: https://help.mail.ru/mail/security/protection/external)
    Provider(
        "mail.ru",
        "Mail.ru",
        ("mail.ru", "inbox.ru", "internet.ru", "bk.ru", "list.ru"),
        *("smtp.mail.ru", 465, "tls", "imap.mail.ru", 993, "tls"),
        _MAIL_RU,
    ),
)

# Outlook.com's domains (https://github.com/thunderbird/autoconfig/blob/master/ispdb/hotmail.com.xml lists OAuth2 alone for
# them): since 16 September 2024 programs other than Microsoft's log in there with OAuth only, never with a password or an
# app password (https://techissuestoday.com/how-to-update-outlook-email-settings-to-avoid-losing-access-after-september-16/,
# https://patriotmail.ai/blog/microsoft-modern-authentication-outlook-app-passwords). setup says so, and asks for servers.
NO_PASSWORDS = frozenset(
    _listed(
        "hotmail.com live.com msn.com outlook.com windowslive.com outlook.at outlook.be outlook.cl outlook.cz "
        "outlook.de outlook.dk outlook.es outlook.fr outlook.hu outlook.ie outlook.in outlook.it outlook.jp "
        "outlook.kr outlook.lv outlook.my outlook.ph outlook.pt outlook.sa outlook.sg outlook.sk outlook.co.id "
        "outlook.co.il outlook.co.th outlook.com.ar outlook.com.au outlook.com.br outlook.com.gr outlook.com.tr "
        "outlook.com.vn hotmail.be hotmail.ca hotmail.cl hotmail.cz hotmail.de hotmail.dk hotmail.es hotmail.fi "
        "hotmail.fr hotmail.gr hotmail.hu hotmail.it hotmail.lt hotmail.lv hotmail.my hotmail.nl hotmail.no "
        "hotmail.ph hotmail.rs hotmail.se hotmail.sg hotmail.sk hotmail.co.id hotmail.co.il hotmail.co.in "
        "hotmail.co.jp hotmail.co.kr hotmail.co.th hotmail.co.uk hotmail.co.za hotmail.com.ar hotmail.com.au "
        "hotmail.com.br hotmail.com.hk hotmail.com.tr hotmail.com.tw hotmail.com.vn live.at live.be live.ca live.cl "
        "live.cn live.de live.dk live.fi live.fr live.hk live.ie live.in live.it live.jp live.nl live.no live.ru "
        "live.se live.co.jp live.co.kr live.co.uk live.co.za live.com.ar live.com.au live.com.mx live.com.my "
        "live.com.ph live.com.pt live.com.sg livemail.tw"
    )
)
OUTLOOK = "Outlook.com"

BY_NAME = {p.name: p for p in PROVIDERS}
_BY_DOMAIN = {domain: p for p in PROVIDERS for domain in p.domains}


def domain_of(address: str) -> str:
    """The domain of a bare address, lower case and without a final dot ("" when it has none)."""
    return address.rpartition("@")[2].strip().rstrip(".").lower() if "@" in address else ""


def for_address(address: str) -> Provider | None:
    """The provider whose servers an address at this domain logs in to, if spite knows it."""
    return _BY_DOMAIN.get(domain_of(address))


def takes_no_password(address: str) -> bool:
    """Whether the address's provider lets no program but its own log in with a password (Outlook.com and its kin)."""
    return domain_of(address) in NO_PASSWORDS
