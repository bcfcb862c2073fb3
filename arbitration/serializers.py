"""API representations of games: the requests the endpoints accept and the state they answer.

The state is built by ``games.selectors.game_state``; the serializers here describe it for
the OpenAPI schema and validate the request bodies.
"""

from rest_framework import serializers

from accounts.privacy import names_hidden, names_shown_to
from core.limits import MAX_ID, MAX_NAMES, NOTE_MAX_LENGTH, USERNAME_MAX_LENGTH
from games.models import Game, ProgressRule, RuleSet
from games.rules.moves import MAX_MOVE_TEXT
from games.rules.position import MAX_FEN_TEXT


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MoveRecordSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    side = serializers.ChoiceField(choices=["black", "white"])
    move = serializers.CharField()
    fen_after = serializers.CharField()
    recorded_at = serializers.DateTimeField(allow_null=True)
    recorded_by = serializers.CharField(allow_null=True, help_text="The username; to anonymous callers, official.")


class FortyMoveSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=["notice", "automatic"], allow_null=True)
    active = serializers.BooleanField()
    count = serializers.IntegerField()
    limit = serializers.IntegerField()
    stronger_side = serializers.CharField(allow_null=True, help_text="black, white or null")
    awaiting_ruling = serializers.BooleanField()


class RepetitionSerializer(serializers.Serializer):
    threshold = serializers.IntegerField(allow_null=True)
    current = serializers.IntegerField()


class SideClockSerializer(serializers.Serializer):
    remaining = serializers.FloatField(help_text="Seconds left now (negative after time is called, per-move).")
    running = serializers.BooleanField()


class DeadlineSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    kind = serializers.ChoiceField(choices=["time_call", "loss"])
    side = serializers.CharField()


class ClocksSerializer(serializers.Serializer):
    control = serializers.DictField()
    status = serializers.ChoiceField(choices=["not_started", "running", "paused", "stopped"])
    running = serializers.CharField(allow_null=True, help_text="The side whose clock runs, or null.")
    black = SideClockSerializer()
    white = SideClockSerializer()
    time_called = serializers.BooleanField()
    sole_capture = serializers.BooleanField()
    moves = serializers.DictField(child=serializers.IntegerField())
    next_deadline = DeadlineSerializer(allow_null=True)
    server_now = serializers.DateTimeField()


class ConfirmationSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The result_confirmed log entry.")
    at = serializers.DateTimeField()


class ConfirmationsSerializer(serializers.Serializer):
    black = ConfirmationSerializer(allow_null=True)
    white = ConfirmationSerializer(allow_null=True)


class GameStateSerializer(serializers.Serializer):
    """The game-state JSON (GET /games/{id}/ and every successful move or ruling; a move's answer has
    ``last_move`` instead of ``moves``)."""

    id = serializers.IntegerField()
    black = PlayerRefSerializer()
    white = PlayerRefSerializer()
    rule_set = serializers.ChoiceField(choices=RuleSet.choices)
    progress_rule = serializers.ChoiceField(choices=ProgressRule.choices)
    repetition_threshold = serializers.IntegerField(allow_null=True)
    start_fen = serializers.CharField()
    status = serializers.CharField(help_text="scheduled, in_progress or finished")
    result = serializers.ChoiceField(choices=Game.Result.choices, allow_null=True)
    termination = serializers.CharField(allow_null=True)
    fen = serializers.CharField()
    side_to_move = serializers.CharField(help_text="black or white")
    ply = serializers.IntegerField()
    legal_moves = serializers.ListField(child=serializers.CharField())
    moves = MoveRecordSerializer(many=True, required=False,
                                 help_text="The moves of the current line; not in the answer to a move.")
    last_move = MoveRecordSerializer(required=False, help_text="Only in the answer to a move: the move recorded.")
    cautions = serializers.DictField(child=serializers.IntegerField())
    warnings = serializers.DictField(child=serializers.DictField(child=serializers.IntegerField()))
    open_choices = serializers.ListField(child=serializers.DictField())
    constraints = serializers.ListField(child=serializers.DictField())
    forty_move = FortyMoveSerializer()
    progress = serializers.DictField()
    repetition = RepetitionSerializer()
    appeals = serializers.ListField(child=serializers.DictField())
    confirmations = ConfirmationsSerializer(
        help_text="Who confirmed the result in force (the digital signature of the scoresheet): per side, the log "
        "entry and when, or null; both null while the game runs or after a result changed.")
    referees = serializers.ListField(child=serializers.CharField())
    log_length = serializers.IntegerField()
    can_write = serializers.BooleanField()
    round = serializers.IntegerField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    clocks = ClocksSerializer(allow_null=True, help_text="Null for a game without a clock.")


class GameListSerializer(serializers.ModelSerializer):
    """A game in the list: players, rules, status and result."""

    black = PlayerRefSerializer(read_only=True)
    white = PlayerRefSerializer(read_only=True)
    referees = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True,
                                            help_text="Usernames; to anonymous callers, the word referee for each.")

    class Meta:
        model = Game
        fields = ["id", "black", "white", "rule_set", "progress_rule", "repetition_threshold", "start_fen",
                  "status", "result", "termination", "ply", "fen", "referees", "round"]
        read_only_fields = fields

    def to_representation(self, instance: Game) -> dict:
        data = super().to_representation(instance)
        request = self.context.get("request")
        if request is not None and not names_shown_to(request.user):
            data["referees"] = names_hidden(data["referees"], "referee")
        return data


class GameCreateSerializer(serializers.Serializer):
    black = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    white = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    rule_set = serializers.ChoiceField(choices=RuleSet.choices, default=RuleSet.STANDARD)
    referees = serializers.ListField(child=serializers.CharField(max_length=USERNAME_MAX_LENGTH), required=False,
                                     default=list, max_length=MAX_NAMES)
    start_fen = serializers.CharField(required=False, allow_blank=True, default="", max_length=MAX_FEN_TEXT,
                                      help_text="A legal position (at most 12 pieces a side, no man on its "
                                      "crowning row); empty: the initial position.")
    progress_rule = serializers.ChoiceField(choices=ProgressRule.choices, default=ProgressRule.FORTY_MOVE_NOTICE)
    repetition_threshold = serializers.ChoiceField(choices=[3, 4], allow_null=True, required=False, default=4)
    clock = serializers.JSONField(
        required=False, allow_null=True, default=None,
        help_text='The time control: {"control": "per-move", "move_seconds": 300, "sole_capture_seconds": 60, '
        '"grace_seconds": 60}, {"control": "moves-in-time", "moves": 30, "seconds": 3600, "then_moves": 30, '
        '"then_seconds": 3600, "increment_seconds": 0} or {"control": "none"} (the default). Seconds may be '
        "fractional. The clock starts with the clock_start ruling.",
    )


#: The largest ply a request may name (a ``PositiveIntegerField``; no game comes near it).
MAX_PLY = 100_000


class MoveRequestSerializer(serializers.Serializer):
    move = serializers.CharField(max_length=MAX_MOVE_TEXT)
    ply = serializers.IntegerField(required=False, min_value=0, max_value=MAX_PLY,
                                   help_text="The ply the move must be (current + 1); "
                                   "another (0 included) is refused with ply_conflict.")
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=NOTE_MAX_LENGTH)


def _plain_text(value: object, *, max_length: int, blank: bool) -> str | None:
    """Returns the stripped text when it is plain printable ASCII that the serializer would take as is."""
    if not isinstance(value, str) or not value.isascii() or not value.isprintable():
        return None
    text = value.strip()
    return text if (blank or text) and len(text) <= max_length else None


def move_request_data(data: object) -> dict:
    """Returns a move request's validated data, as ``MoveRequestSerializer`` would.

    The request of every move: a well-formed one (printable ASCII text, a whole ply) is read
    directly, which costs a hundredth of building the serializer; anything else goes through
    the serializer, which gives the errors.
    """
    if isinstance(data, dict) and set(data) <= {"move", "ply", "note"}:
        move = _plain_text(data.get("move"), max_length=MAX_MOVE_TEXT, blank=False)
        ply = data.get("ply")
        note = _plain_text(data.get("note", ""), max_length=NOTE_MAX_LENGTH, blank=True)
        if move is not None and note is not None and (ply is None and "ply" not in data
                                                      or type(ply) is int and 0 <= ply <= MAX_PLY):
            validated = {"move": move, "note": note}
            if "ply" in data:
                validated["ply"] = ply
            return validated
    serializer = MoveRequestSerializer(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class LogEntrySerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    side = serializers.CharField()
    law = serializers.CharField()
    note = serializers.CharField()
    data = serializers.DictField()
    actor = serializers.CharField(allow_null=True, help_text="The username (null: the system); to anonymous "
                                  "callers, official, and the names in data (arbiter, referees) by role words.")
    created_at = serializers.DateTimeField()
    ply = serializers.IntegerField()
    fen = serializers.CharField()
    supersedes = serializers.IntegerField(allow_null=True)
    prev_hash = serializers.CharField()
    hash = serializers.CharField(help_text="HMAC-SHA256 under the record key named by key_id (docs/security.md).")
    key_id = serializers.CharField(help_text="The record key's id; empty: plain SHA-256, before keys.")


class LogVerifySerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    entries = serializers.IntegerField()
    broken_at = serializers.IntegerField(required=False)
    reason = serializers.CharField(required=False)


class ErrorBodySerializer(serializers.Serializer):
    error = serializers.DictField()
