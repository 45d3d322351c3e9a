"""The wire protocol: typed messages per direction, decoded with a size limit.

Every frame is a JSON object with a ``type`` tag. Client messages are decoded
straight into the tagged structs below; anything else becomes a
:class:`ProtocolError` carrying a stable ``code`` and quoting the input.
See ``docs/protocol.md``.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

import msgspec

from setgame.rules.settings import MAX_START

MAX_FRAME: Final = 4096
"""The largest client frame, in bytes of UTF-8."""
MAX_DEPTH: Final = 16
"""The deepest nesting of arrays and objects a frame or body may have (``SETGAME_JSON_DEPTH``);
no message needs more than three, and a deeper one would recurse in the decoder."""

# Close codes (RFC 6455 and the application range 4000-4999).
CLOSE_UNSUPPORTED: Final = 1003
CLOSE_POLICY: Final = 1008
CLOSE_TOO_BIG: Final = 1009
CLOSE_SERVER_ERROR: Final = 1011
CLOSE_TRY_LATER: Final = 1013
CLOSE_BAD_ORIGIN: Final = 4001
"""A handshake from another site's page (``edge.foreign_origin``)."""
CLOSE_BANNED: Final = 4003
"""A banned player's sockets, closed as the ban is made (``moderation_api.turn_away``)."""
CLOSE_NO_ROOM: Final = 4004
CLOSE_SEAT_ELSEWHERE: Final = 4009
"""A seat's socket that made way for a newer one of the same seat (another tab or device,
past ``seat_sockets``), with the reason :data:`SEAT_ELSEWHERE`. Final for the page: were
it to reconnect, it would close the newer one, which would reconnect in turn, and so on."""
SEAT_ELSEWHERE: Final = "seat_elsewhere"

# Reasons of a 1011 close (docs/protocol.md, "Close codes"): what the client may do about it.
STORAGE_UNAVAILABLE: Final = "storage_unavailable"
"""The database (or a cluster's Redis) did not answer: try again later."""
OWNER_MOVED: Final = "owner_moved"
"""Another process took the room over (a cluster's fencing refused a write): reconnect."""
SERVER_ERROR: Final = "server_error"
"""Any other fault on this connection or in its room (the server's log says which)."""

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=24)]
CardCode = Annotated[str, msgspec.Meta(min_length=4, max_length=5)]
"""A card code of any deck: four characters, five for MegaSet (``2RTDS``)."""
MIN_CLAIM: Final = 3
MAX_CLAIM: Final = 6
"""A claim holds 3 (set), 4 (UltraSet, 4Set) or 6 (GhostSet) cards; the room's variant
decides which (the engine refuses another count with ``bad_pick``)."""
Version = Annotated[int, msgspec.Meta(ge=0)]
MAX_POSITION: Final = 255
"""The highest table position a message may name (no deck has more than 256 cards); the
engine refuses one past the table's end with ``bad_position``."""
Position = Annotated[int, msgspec.Meta(ge=0, le=MAX_POSITION)]


class ProtocolError(ValueError):
    """A client message that cannot be accepted; ``code`` is stable, the text quotes it."""

    def __init__(self, code: str, message: str, request: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.request = request


# --- client -> server -------------------------------------------------------


class _In(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    pass


class Hello(_In, tag="hello"):
    token: str | None = None
    since: Version | None = None


class Join(_In, tag="join"):
    name: Name


class Start(_In, tag="start"):
    pass


class Call(_In, tag="call"):
    version: Version


class Pick(_In, tag="pick"):
    cards: Annotated[list[CardCode], msgspec.Meta(min_length=MIN_CLAIM, max_length=MAX_CLAIM)]
    version: Version


class Turn(_In, tag="turn"):
    """Memory: turn up the face-down card at ``position`` of the table."""

    position: Position


class NoSet(_In, tag="no_set"):
    pass


class Hint(_In, tag="hint"):
    pass


class Again(_In, tag="again"):
    pass


class Leave(_In, tag="leave"):
    pass


class Ping(_In, tag="ping"):
    pass


class Say(_In, tag="chat"):
    """A chat message: plain text; ``chat.py`` bounds its length and characters (the frame
    bounds it on the wire)."""

    text: str


ClientMessage = (
    Hello | Join | Start | Call | Pick | Turn | NoSet | Hint | Again | Leave | Ping | Say
)
CLIENT_TYPES: Final = tuple(
    m.__struct_config__.tag
    for m in (Hello, Join, Start, Call, Pick, Turn, NoSet, Hint, Again, Leave, Ping, Say)
)

# --- server -> client -------------------------------------------------------


class _Out(msgspec.Struct, tag_field="type", omit_defaults=False):
    pass


class Welcome(_Out, tag="welcome"):
    room: str
    game: str
    you: str | None
    version: int
    state: dict[str, Any]
    missed: list[dict[str, Any]] | None = None


class Joined(_Out, tag="joined"):
    player: str
    token: str


class Update(_Out, tag="update"):
    version: int
    events: list[dict[str, Any]]
    state: dict[str, Any]


class HintReply(_Out, tag="hint"):
    cards: list[str]


class Presence(_Out, tag="presence"):
    player: str
    connected: bool


class Watchers(_Out, tag="watchers"):
    """How many connections of the room have no seat (sent when that number changes)."""

    count: int


class RatingChange(msgspec.Struct, omit_defaults=True):
    """One signed-in player's rating after a finished game (``before``/``after``: shown
    ratings, ``1000 + 24 * (mu - 3 sigma)``; both null and ``unrated`` the reason when the
    game did not move it: ``docs/rules.md``, "Ratings")."""

    player: str
    before: int | None
    after: int | None
    unrated: str | None = None


class Ratings(_Out, tag="ratings"):
    """The rating changes of the room's finished game, once the server has recorded it."""

    game: str
    changes: list[RatingChange]


class Error(_Out, tag="error"):
    code: str
    message: str
    request: str | None = None
    # a ban's or a mute's end (wall-clock seconds) and reason (``moderation.py``); absent
    # from every other error
    until: float | msgspec.UnsetType = msgspec.UNSET
    reason: str | msgspec.UnsetType = msgspec.UNSET


class Pong(_Out, tag="pong"):
    pass


class ChatLines(_Out, tag="chat"):
    """Chat messages of the room's current game, oldest first (``chat.py``): one when it is
    said, the latest ones after a ``welcome``."""

    messages: list[dict[str, Any]]


class ChatDeleted(_Out, tag="chat_deleted"):
    """A moderator deleted a chat line (``moderation_api.py``): pages drop it."""

    game: str
    seq: int


ServerMessage = (
    Welcome | Joined | Update | HintReply | Presence | Watchers | Error | Pong | ChatLines
    | ChatDeleted | Ratings
)

# --- decoding ---------------------------------------------------------------

_decoder: Final = msgspec.json.Decoder(ClientMessage)
_encoder: Final = msgspec.json.Encoder()


def _request_type(data: bytes) -> str | None:
    """The ``type`` of a frame that failed validation, when it is readable."""
    try:
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError:
        return None
    kind = raw.get("type") if isinstance(raw, dict) else None
    return kind if isinstance(kind, str) else None


def check_depth(data: bytes, limit: int = MAX_DEPTH) -> None:
    """:class:`ProtocolError` ``too_deep`` when arrays and objects nest deeper than ``limit``.

    Brackets inside strings do not count. A frame with no more opening brackets than the
    limit cannot be too deep, so only such frames are scanned byte by byte.

    >>> check_depth(b'{"a": [[["[[[[[[["]]]}', 4)  # the brackets in the string do not count
    >>> check_depth(b"[" * 5 + b"]" * 5, 4)
    Traceback (most recent call last):
    ...
    setgame.server.protocol.ProtocolError: JSON nested deeper than 4 levels: '[[[[[]]]]]'
    """
    if data.count(b"[") + data.count(b"{") <= limit:
        return
    depth, in_string, escaped = 0, False, False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                raise ProtocolError(
                    "too_deep", f"JSON nested deeper than {limit} levels: {_quote(data, 60)}"
                )
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1


def decode(frame: str | bytes, depth: int = MAX_DEPTH) -> ClientMessage:
    """One client frame -> a typed message, or :class:`ProtocolError`.

    >>> decode('{"type": "pick", "cards": ["1RSD", "2GTO", "3POS"], "version": 7}')
    Pick(cards=['1RSD', '2GTO', '3POS'], version=7)
    >>> decode('{"type": "dance"}')
    Traceback (most recent call last):
    ...
    setgame.server.protocol.ProtocolError: unknown message type: 'dance' in '{"type": "dance"}'
    """
    data = frame.encode() if isinstance(frame, str) else frame
    if len(data) > MAX_FRAME:
        raise ProtocolError("too_big", f"frame of {len(data)} bytes exceeds {MAX_FRAME}")
    check_depth(data, depth)
    try:
        message: ClientMessage = _decoder.decode(data)
        return message
    except msgspec.ValidationError as exc:
        kind = _request_type(data)
        text = _quote(data)
        if kind is not None and kind not in CLIENT_TYPES:
            raise ProtocolError(
                "unknown_type", f"unknown message type: {kind!r} in {text}"
            ) from None
        if kind is None and "type" in str(exc):
            raise ProtocolError("bad_message", f"a message needs a string 'type': {text}") from None
        raise ProtocolError("bad_message", f"{exc} in {text}", kind) from None
    except msgspec.DecodeError:
        raise ProtocolError("bad_json", f"not a JSON message: {_quote(data)}") from None


def _quote(data: bytes, limit: int = 200) -> str:
    text = data.decode("utf-8", "replace")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def encode(message: ServerMessage) -> str:
    """A server message as a JSON text frame."""
    return _encoder.encode(message).decode()


def schemas() -> dict[str, Any]:
    """JSON Schemas of both directions, for ``docs/protocol.md``."""
    (client,), client_defs = msgspec.json.schema_components([ClientMessage])
    (server,), server_defs = msgspec.json.schema_components([ServerMessage])
    return {
        "client": {"anyOf": client["anyOf"], "$defs": client_defs},
        "server": {"anyOf": server["anyOf"], "$defs": server_defs},
    }


# --- room settings (POST /api/rooms) ---------------------------------------


class RoomSettings(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The settings of a room: the engine's game settings plus room-only ones."""

    # rated games change the ratings (players.py); None: rated when every person is signed in
    rated: bool | None = None
    mode: Literal["multi", "solo", "practice"] = "multi"
    penalty: Literal["point", "lockout", "both", "none"] = "point"
    no_set: Literal["vote", "auto"] = "vote"
    deck: Annotated[str, msgspec.Meta(min_length=1, max_length=32)] = "full"
    pick_seconds: Annotated[float, msgspec.Meta(ge=1, le=60)] = 5.0
    rounds: Literal["match", "single"] = "match"
    lockout_lift: Literal["set", "set_or_cards"] = "set"
    variant: Annotated[str, msgspec.Meta(min_length=1, max_length=32)] = "classic"
    table: Annotated[int, msgspec.Meta(ge=0, le=MAX_POSITION + 1)] = 0
    day: Annotated[str, msgspec.Meta(max_length=32)] = ""
    # practice: the cards each round starts with (a photo's table; the engine checks them)
    start: Annotated[tuple[CardCode, ...], msgspec.Meta(max_length=MAX_START)] = ()
    bots: Annotated[int, msgspec.Meta(ge=0, le=7)] = 0
    bot_level: Annotated[int, msgspec.Meta(ge=1, le=5)] = 3
    public: bool = True
    chat: Literal["all", "players"] = "all"  # who may chat: everyone, or only seated players


_settings_decoder: Final = msgspec.json.Decoder(RoomSettings)


def decode_settings(body: bytes, size: int = MAX_FRAME, depth: int = MAX_DEPTH) -> RoomSettings:
    """A POST body -> :class:`RoomSettings`; an empty body (no bytes) takes every default.
    A blank one (only white space) is refused: it is more likely a broken client.

    >>> decode_settings(b"  ")
    Traceback (most recent call last):
    ...
    setgame.server.protocol.ProtocolError: the body is blank (2 bytes of white space): send \
a JSON object of settings, {} or nothing
    >>> decode_settings(b'{"deck": "\\xff"}')
    Traceback (most recent call last):
    ...
    setgame.server.protocol.ProtocolError: the body is not UTF-8: byte 0xff at offset 10 in ...
    """
    if not body:
        return RoomSettings()
    if len(body) > size:
        raise ProtocolError("too_big", f"settings of {len(body)} bytes exceed {size}")
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(
            "bad_encoding",
            f"the body is not UTF-8: byte {body[exc.start]:#04x} at offset {exc.start} "
            f"in {_quote(body)}",
        ) from None
    if not body.strip():
        raise ProtocolError(
            "blank_body",
            f"the body is blank ({len(body)} bytes of white space): "
            "send a JSON object of settings, {} or nothing",
        )
    check_depth(body, depth)
    try:
        return _settings_decoder.decode(body)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ProtocolError("bad_settings", f"{exc} in {_quote(body)}") from None


def settings_dict(settings: RoomSettings) -> dict[str, Any]:
    """The settings as JSON; ``start`` only when given (rooms without it stay as they were)."""
    data: dict[str, Any] = msgspec.to_builtins(settings)
    if not data["start"]:
        del data["start"]
    return data
