"""API representations of players, tournaments, rounds, matches and standings."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from rest_framework import serializers

from accounts.privacy import entry_hidden, names_hidden, names_shown_to
from accounts.roles import is_director
from core.limits import (
    MAX_ID,
    MAX_NAMES,
    MAX_SMALL_COLUMN,
    NOTE_MAX_LENGTH,
    USERNAME_MAX_LENGTH,
)
from core.text import no_control_characters
from games.models import Game, ProgressRule, RuleSet
from players.models import RATING_MAX, RATING_MIN, Player, PlayerClaim, PlayerLog
from tournaments.log import round_published_head, tournament_head_text
from tournaments.models import Round, Tournament, TournamentLog
from tournaments.scoring import TIEBREAKS


def _names_hidden_in(context: dict[str, Any]) -> bool:
    """Tells whether the answer goes to an anonymous caller (``accounts.privacy``); without a request
    (a director's write answered by the view), names are shown."""
    request = context.get("request")
    return request is not None and not names_shown_to(request.user)


class UsernameField(serializers.SlugRelatedField):
    """A user named by username; a text no username can be (too long, a NUL byte) is refused before the query."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and (len(data) > USERNAME_MAX_LENGTH or "\x00" in data):
            self.fail("does_not_exist", slug_name=self.slug_field, value=data[:USERNAME_MAX_LENGTH])
        return super().to_internal_value(data)


class PlayerSerializer(serializers.ModelSerializer):
    user = UsernameField(
        slug_field="username", queryset=get_user_model().objects.all(), required=False, allow_null=True,
        help_text="The player's user account (username), so that he sees his own games; null: none. Shown to "
                  "directors; set only by an administrator (a player claims his record: POST /players/{id}/claim/).",
    )
    rating_deviation = serializers.FloatField(read_only=True, allow_null=True, help_text="Glicko-2 deviation.")

    class Meta:
        model = Player
        fields = ["id", "name", "club", "federation", "federation_id", "rating", "rating_deviation", "user"]
        extra_kwargs = {"rating": {"min_value": RATING_MIN, "max_value": RATING_MAX}}

    def to_representation(self, instance: Player) -> dict[str, Any]:
        """Shows the linked account's username to directors only."""
        data = super().to_representation(instance)
        request = self.context.get("request")
        if request is None or not is_director(request.user):
            data.pop("user", None)
        return data

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError("A player needs a name.")
        no_control_characters(value)
        return value

    def validate_club(self, value: str) -> str:
        no_control_characters(value)
        return value

    def validate_federation(self, value: str) -> str:
        no_control_characters(value)
        return value

    def validate_federation_id(self, value: str) -> str:
        no_control_characters(value)
        return value


class PlayerLogSerializer(serializers.ModelSerializer):
    actor = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    account = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True,
                                           help_text="The account a claim, link or unlink concerns (username).")
    changes = serializers.DictField(help_text='{field: {"before", "after"}}; the linked account by username, '
                                              'a claim by its id')

    class Meta:
        model = PlayerLog
        fields = ["kind", "actor", "account", "as_administrator", "changes", "reason", "created_at"]
        read_only_fields = fields


class PlayerClaimSerializer(serializers.ModelSerializer):
    """A claim as its claimant and the player's keepers see it."""

    player = serializers.SerializerMethodField()
    user = serializers.SlugRelatedField(slug_field="username", read_only=True, help_text="The claimant.")
    decided_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = PlayerClaim
        fields = ["id", "player", "user", "status", "statement", "created_at", "decided_by", "decided_at", "reason"]
        read_only_fields = fields

    def get_player(self, claim: PlayerClaim) -> dict[str, Any]:
        return {"id": claim.player_id, "name": claim.player.name}


class PlayerClaimCreateSerializer(serializers.Serializer):
    statement = serializers.CharField(max_length=NOTE_MAX_LENGTH, required=False, allow_blank=True, default="",
                                      help_text="What shows that you are this player (club, federation id...): "
                                                "the player's keeper reads it.")


class PlayerClaimDecisionSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["approve", "refuse"])
    reason = serializers.CharField(max_length=NOTE_MAX_LENGTH, required=False, allow_blank=True, default="",
                                   help_text="Why (required to refuse: the claimant reads it).")


class PlayerUnlinkSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=NOTE_MAX_LENGTH, required=False, allow_blank=True, default="")


class RatingHistorySerializer(serializers.Serializer):
    tournament = serializers.DictField(help_text="slug and name")
    rating_before = serializers.IntegerField(allow_null=True)
    rating_after = serializers.IntegerField()
    deviation_before = serializers.FloatField(allow_null=True)
    deviation_after = serializers.FloatField(allow_null=True)
    volatility_after = serializers.FloatField(allow_null=True)
    games = serializers.IntegerField()
    created_at = serializers.DateTimeField()


def rating_history_data(row: Any) -> dict[str, Any]:
    return {"tournament": {"slug": row.tournament.slug, "name": row.tournament.name},
            "rating_before": row.rating_before, "rating_after": row.rating_after,
            "deviation_before": row.deviation_before, "deviation_after": row.deviation_after,
            "volatility_after": row.volatility_after, "games": row.games, "created_at": row.created_at}


class PlayersImportSerializer(serializers.Serializer):
    csv = serializers.CharField(trim_whitespace=False, help_text="CSV text with a header line (the body is at most "
                                "DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB).")
    dry_run = serializers.BooleanField(required=False, default=False)


class RefusedRowSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    reason = serializers.CharField()
    row = serializers.DictField(child=serializers.CharField(allow_blank=True))
    player = serializers.IntegerField(allow_null=True, required=False,
                                      help_text="The registered player the row is, when it is a duplicate of one.")


class PlayersImportReportSerializer(serializers.Serializer):
    created = serializers.ListField(child=serializers.DictField())
    refused = RefusedRowSerializer(many=True)
    dry_run = serializers.BooleanField()


class TournamentPlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


def player_ref(player: Player | None) -> dict[str, Any] | None:
    return {"id": player.pk, "name": player.name} if player is not None else None


class TournamentSerializer(serializers.ModelSerializer):
    rounds = serializers.IntegerField(source="round_count", allow_null=True)
    clock = serializers.JSONField(source="clock_control", read_only=True,
                                  help_text="The games' time control; {} for none (also as clock_control).")
    directors = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True,
                                             help_text="Usernames; to anonymous callers, the word director for each.")
    referees = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True,
                                            help_text="Usernames; to anonymous callers, the word referee for each.")
    arbiters = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True,
                                            help_text="Who decides appeals on its games (Law 28).")
    scoring = serializers.SerializerMethodField()
    log_head = serializers.SerializerMethodField(
        help_text="The tournament's log chain head, SEQ:HASH (running or finished): keep a copy, and "
        "`verify_log --tournament SLUG --head SEQ:HASH` tells later whether the record still leads to it.")

    class Meta:
        model = Tournament
        fields = ["id", "name", "slug", "format", "rounds", "rule_set", "progress_rule", "opening",
                  "deck", "deck_name", "deck_barred", "deck_added", "games_per_match", "score_by", "scoring", "tiebreaks", "rated", "clock", "clock_control", "knockout_extra_blocks",
                  "pairing_system", "acceleration", "half_point_byes", "byes_closed_rounds",
                  "venue", "start_date", "end_date", "status", "directors", "referees", "arbiters",
                  "appeal_window_minutes", "log_head"]
        read_only_fields = fields

    def get_log_head(self, obj: Tournament) -> str | None:
        return tournament_head_text(obj)

    def get_scoring(self, obj: Tournament) -> dict[str, Any]:
        return {
            "match_points": {"win": obj.match_points_win, "draw": obj.match_points_draw,
                             "loss": obj.match_points_loss},
            "game_points": {"win": float(obj.game_points_win), "draw": float(obj.game_points_draw), "loss": 0.0},
        }

    def to_representation(self, instance: Tournament) -> dict:
        data = super().to_representation(instance)
        if _names_hidden_in(self.context):
            data["directors"] = names_hidden(data["directors"], "director")
            data["referees"] = names_hidden(data["referees"], "referee")
            if "arbiters" in data:
                data["arbiters"] = names_hidden(data["arbiters"], "arbiter")
        return data


#: The longest appeal window: a year, in minutes.
MAX_APPEAL_WINDOW_MINUTES = 525_600
#: The most match points a result may be worth.
MAX_MATCH_POINTS = 100
#: The most rounds a Swiss may have, and games a match.
MAX_ROUNDS = 100
MAX_GAMES_PER_MATCH = 100


class ScoringInputSerializer(serializers.Serializer):
    win = serializers.IntegerField(min_value=0, max_value=MAX_MATCH_POINTS, default=2)
    draw = serializers.IntegerField(min_value=0, max_value=MAX_MATCH_POINTS, default=1)
    loss = serializers.IntegerField(min_value=0, max_value=MAX_MATCH_POINTS, default=0)


def _usernames(**options: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(max_length=USERNAME_MAX_LENGTH), max_length=MAX_NAMES,
                                 **options)


def _tiebreaks(**options: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.ChoiceField(choices=list(TIEBREAKS)), max_length=len(TIEBREAKS),
                                 help_text="Ordered tiebreak names, each at most once.", **options)


def _note(**options: Any) -> serializers.CharField:
    return serializers.CharField(max_length=NOTE_MAX_LENGTH, **options)


#: The largest opening number a deck may name (the 11-man ballot has 2,400).
MAX_OPENING_NUMBER = 2400


def _deck(**options: Any) -> serializers.CharField:
    return serializers.CharField(max_length=24, allow_blank=True, default="", help_text=(
        "The deck the ballot draws from: acf (the ACF 3-move deck of 156), acf-144, computer-tough (50), two-move, "
        "eleven-man; empty: the opening's own (docs/openings.md)."), **options)


def _deck_name(**options: Any) -> serializers.CharField:
    return serializers.CharField(max_length=80, allow_blank=True, default="", validators=[no_control_characters],
                                 help_text="The organiser's name for his deck (\"Masters' deck\").", **options)


def _deck_numbers(help_text: str, **options: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=MAX_OPENING_NUMBER),
                                 max_length=MAX_OPENING_NUMBER, default=list, help_text=help_text, **options)


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, validators=[no_control_characters])
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True, default="")
    format = serializers.ChoiceField(choices=Tournament.Format.choices, default=Tournament.Format.ROUND_ROBIN)
    rounds = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, required=False, allow_null=True, default=None,
                                      help_text="The number of rounds of a Swiss.")
    games_per_match = serializers.IntegerField(min_value=1, max_value=MAX_GAMES_PER_MATCH, default=2,
                                               help_text="Games a round: 1, 2 or 4 (2 or 4: each opening twice, "
                                                         "colours reversed).")
    opening = serializers.ChoiceField(choices=Tournament.Opening.choices, default=Tournament.Opening.THREE_MOVE_BALLOT)
    deck = _deck()
    deck_name = _deck_name()
    deck_barred = _deck_numbers("Opening numbers barred from the deck.")
    deck_added = _deck_numbers("Opening numbers (of the deck's list) added to it.")
    score_by = serializers.ChoiceField(choices=Tournament.ScoreBy.choices, default=Tournament.ScoreBy.ROUND,
                                       help_text="round: match points for each round; game: for each game.")
    rule_set = serializers.ChoiceField(choices=RuleSet.choices, default=RuleSet.STANDARD)
    progress_rule = serializers.ChoiceField(choices=ProgressRule.choices, default=ProgressRule.FORTY_MOVE_NOTICE)
    referees = _usernames(required=False, default=list)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="",
                                  validators=[no_control_characters])
    start_date = serializers.DateField(required=False, allow_null=True, default=None)
    end_date = serializers.DateField(required=False, allow_null=True, default=None)
    clock = serializers.JSONField(
        required=False, allow_null=True,
        help_text='The games\' time control: {"control": "per-move", "move_seconds": 300}, {"control": '
                  '"moves-in-time", "moves": 30, "seconds": 3600}, or null / {"control": "none"} for none.',
    )
    clock_control = serializers.JSONField(required=False, allow_null=True, help_text="The same as clock (older name).")
    tiebreaks = _tiebreaks(required=False, allow_null=True, default=None)
    rated = serializers.BooleanField(required=False, default=False)
    scoring = ScoringInputSerializer(required=False)
    knockout_extra_blocks = serializers.IntegerField(min_value=0, max_value=MAX_GAMES_PER_MATCH, required=False,
                                                     allow_null=True, default=None)
    arbiters = _usernames(required=False, default=list,
                          help_text="Who decides appeals on its games (Law 28), by username.")
    appeal_window_minutes = serializers.IntegerField(
        min_value=1, max_value=MAX_APPEAL_WINDOW_MINUTES, required=False, allow_null=True, default=None,
        help_text="Appeals are filed within this many minutes of a game's end; null: until the next round is "
                  "published.")
    pairing_system = serializers.ChoiceField(
        choices=Tournament.PairingSystem.choices, required=False,
        help_text="A Swiss: dutch (the FIDE Dutch system, C.04.3) or weighted (this system's own matching).")
    acceleration = serializers.ChoiceField(choices=Tournament.Acceleration.choices, required=False,
                                           help_text="A Swiss paired by the Dutch system: baku or none.")
    half_point_byes = serializers.IntegerField(min_value=0, max_value=100, required=False,
                                               help_text="How many half-point byes a player may ask for (0: none).")
    byes_closed_rounds = serializers.IntegerField(min_value=0, max_value=100, required=False,
                                                  help_text="No half-point bye in this many last rounds.")

    def validate_games_per_match(self, value: int) -> int:
        if value not in (1, 2, 4):
            raise serializers.ValidationError("1, 2 or 4 games a round (2 or 4: each opening twice, colours reversed).")
        return value

    def service_kwargs(self) -> dict[str, Any]:
        data = dict(self.validated_data)
        data["clock_control"] = _clock_given(data)
        scoring = data.pop("scoring", None) or {}
        data["round_count"] = data.pop("rounds")
        data["match_points_win"] = scoring.get("win", 2)
        data["match_points_draw"] = scoring.get("draw", 1)
        data["match_points_loss"] = scoring.get("loss", 0)
        return data


def _clock_given(data: dict[str, Any]) -> Any:
    """Pops ``clock`` and its older name ``clock_control`` from ``data``; returns the one given (clock first)."""
    clock = data.pop("clock", None) if "clock" in data else None
    older = data.pop("clock_control", None)
    return clock if clock is not None else older


class TournamentUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False, validators=[no_control_characters])
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True, validators=[no_control_characters])
    start_date = serializers.DateField(required=False, allow_null=True)
    end_date = serializers.DateField(required=False, allow_null=True)
    clock = serializers.JSONField(required=False, allow_null=True, help_text="As on creation; null: no clock.")
    clock_control = serializers.JSONField(required=False, allow_null=True, help_text="The same as clock.")
    tiebreaks = _tiebreaks(required=False, allow_null=True)
    rated = serializers.BooleanField(required=False)
    appeal_window_minutes = serializers.IntegerField(min_value=1, max_value=MAX_APPEAL_WINDOW_MINUTES, required=False,
                                                     allow_null=True)
    opening = serializers.ChoiceField(choices=Tournament.Opening.choices, required=False)
    deck = serializers.CharField(max_length=24, allow_blank=True, required=False, help_text="As on creation.")
    deck_name = serializers.CharField(max_length=80, allow_blank=True, required=False,
                                      validators=[no_control_characters])
    deck_barred = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=MAX_OPENING_NUMBER),
                                        max_length=MAX_OPENING_NUMBER, required=False)
    deck_added = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=MAX_OPENING_NUMBER),
                                       max_length=MAX_OPENING_NUMBER, required=False)
    games_per_match = serializers.ChoiceField(choices=[1, 2, 4], required=False)
    score_by = serializers.ChoiceField(choices=Tournament.ScoreBy.choices, required=False)
    pairing_system = serializers.ChoiceField(
        choices=Tournament.PairingSystem.choices, required=False,
        help_text="A Swiss: dutch (the FIDE Dutch system, C.04.3) or weighted (this system's own matching).")
    acceleration = serializers.ChoiceField(choices=Tournament.Acceleration.choices, required=False,
                                           help_text="A Swiss paired by the Dutch system: baku or none.")
    half_point_byes = serializers.IntegerField(min_value=0, max_value=100, required=False,
                                               help_text="How many half-point byes a player may ask for (0: none).")
    byes_closed_rounds = serializers.IntegerField(min_value=0, max_value=100, required=False,
                                                  help_text="No half-point bye in this many last rounds.")
    reason = _note(required=False, allow_blank=True, default="")

    def service_kwargs(self) -> dict[str, Any]:
        data = dict(self.validated_data)
        if "clock" in data or "clock_control" in data:
            data["clock_control"] = _clock_given(data)
        return data


class EntryCreateSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    missed_rounds = serializers.ChoiceField(
        choices=["zero", "half", "full"], required=False, default="zero",
        help_text="A late entry: the bye he gets for each round he missed (zero, half or full points).")


class ByeSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    round = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS)
    kind = serializers.ChoiceField(choices=["half", "zero"], required=False, default="half",
                                   help_text="half: a half-point bye asked for; zero: an absence announced.")
    reason = _note(required=False, allow_blank=True, default="")


class ByeCancelSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    round = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS)
    reason = _note(required=False, allow_blank=True, default="")


class ByeDataSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    round = serializers.IntegerField()
    kind = serializers.CharField()
    reason = serializers.CharField(help_text="requested or late_entry.")


class ProhibitionCreateSerializer(serializers.Serializer):
    players = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=MAX_ID), min_length=2,
                                    max_length=1000)
    until_round = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, required=False, allow_null=True,
                                           default=None, help_text="Kept apart up to this round; null: always.")
    label = serializers.CharField(max_length=120, required=False, allow_blank=True, default="",
                                  validators=[no_control_characters], help_text="Why: a club, a family.")


class ProhibitionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    players = serializers.ListField(child=serializers.IntegerField())
    until_round = serializers.IntegerField(allow_null=True)
    label = serializers.CharField()


class EntryWithdrawSerializer(serializers.Serializer):
    reason = _note(required=False, allow_blank=True, default="")


class EntrySerializer(serializers.Serializer):
    player = TournamentPlayerRefSerializer()
    rating = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    first_round = serializers.IntegerField()
    withdrawn_after_round = serializers.IntegerField(allow_null=True)


def entry_data(entry: Any) -> dict[str, Any]:
    return {"player": player_ref(entry.player), "rating": entry.player.rating, "status": entry.status,
            "seed": entry.seed, "first_round": entry.first_round, "withdrawn_after_round": entry.withdrawn_after_round}


class StatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=[s for s in Tournament.Status.choices if s[0] != "draft"])
    reason = _note(required=False, allow_blank=True, default="")


class RefereesSerializer(serializers.Serializer):
    referees = _usernames()


class ArbitersSerializer(serializers.Serializer):
    arbiters = _usernames(help_text="The arbiter or appeals committee (Law 28), by username.")


#: The most pairings a round may list (a board each).
MAX_PAIRINGS = 1000


class PairingsEditSerializer(serializers.Serializer):
    pairings = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(allow_null=True, min_value=1, max_value=MAX_ID),
                                    min_length=1, max_length=2),
        max_length=MAX_PAIRINGS,
        help_text="[[player_one, player_two], [player, null] for a bye, ...]",
    )
    reason = _note()


class ForfeitSerializer(serializers.Serializer):
    board = serializers.IntegerField(min_value=1, max_value=MAX_SMALL_COLUMN)
    winner = serializers.IntegerField(allow_null=True, min_value=1, max_value=MAX_ID,
                                      help_text="The player awarded the match; null: both absent.")
    reason = _note()


class RoundScheduleSerializer(serializers.Serializer):
    scheduled_at = serializers.DateTimeField(allow_null=True, help_text="When the round is to start (ISO 8601; "
                                             "without a zone: UTC); null clears it.")


class RoundPairSerializer(serializers.Serializer):
    absent = serializers.ChoiceField(choices=["forfeit", "leave_out"], default="forfeit", required=False,
                                     help_text="Players marked absent for the round: their matches are forfeits, or "
                                     "(a Swiss) they are left out of the pairing.")


class PresenceMarkSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    present = serializers.BooleanField()


class PresenceSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The round the check-in is for (the next to pair, or the open preview).")
    players = serializers.ListField(child=serializers.DictField(), help_text="Each active entry: player, name, "
                                    "present (true, false, or null when not marked).")


class RoundScoresheetsSerializer(serializers.Serializer):
    pdn = serializers.CharField(max_length=300_000, trim_whitespace=False,
                                help_text="The round's games as PDN, each with its Black and White tags (the players' "
                                "names) and its moves and result.")


class ResultSerializer(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    result = serializers.ChoiceField(choices=Game.Result.choices)
    reason = _note()
    forfeit = serializers.BooleanField(required=False, default=False,
                                       help_text="The loser did not play the game (a forfeit, Law 30): 1-0 or 0-1.")


class ResultUndoSerializer(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=NOTE_MAX_LENGTH, default="")


class EntriesImportSerializer(serializers.Serializer):
    csv = serializers.CharField(trim_whitespace=False, max_length=200_000, help_text=(
        "CSV text (name, club, federation, federation_id, rating), with its header line or without it (the columns "
        "in that order; lines pasted from a spreadsheet, separated by tabs, are read too)."))
    dry_run = serializers.BooleanField(required=False, default=True, help_text=(
        "true (the default): the preview, nothing written; false: register the new players and enter them all."))


class EntriesImportReportSerializer(serializers.Serializer):
    created = serializers.ListField(child=serializers.DictField(), help_text="New players: registered and entered.")
    entered = serializers.ListField(child=serializers.DictField(), help_text="Players of the registry: entered.")
    already = serializers.ListField(child=serializers.DictField(), help_text="Entered already: nothing done.")
    refused = RefusedRowSerializer(many=True)
    dry_run = serializers.BooleanField()


# --- read shapes (documented for the schema; the views build plain dicts) ----------------------


class GameBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    black = TournamentPlayerRefSerializer()
    white = TournamentPlayerRefSerializer()
    start_fen = serializers.CharField()
    ballot = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    result = serializers.CharField(allow_null=True)
    termination = serializers.CharField(allow_null=True)


class LotsSerializer(serializers.Serializer):
    seed = serializers.CharField()
    black_first = TournamentPlayerRefSerializer(allow_null=True)


class BallotSerializer(serializers.Serializer):
    kind = serializers.CharField(default="three-move", help_text="three-move, two-move or eleven-man.")
    deck = serializers.CharField(default="acf", help_text="The deck drawn from: its base, -barred, +added numbers.")
    number = serializers.IntegerField()
    moves = serializers.CharField()
    removed = serializers.ListField(child=serializers.IntegerField(), default=list,
                                    help_text="11-man ballot: the black and the white man removed first.")
    fen = serializers.CharField()
    seed = serializers.CharField()
    index = serializers.IntegerField()


class MatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    board = serializers.IntegerField()
    kind = serializers.CharField()
    player_one = TournamentPlayerRefSerializer()
    player_two = TournamentPlayerRefSerializer(allow_null=True)
    explanation = serializers.CharField()
    edited = serializers.BooleanField()
    lots = LotsSerializer(allow_null=True)
    ballots = BallotSerializer(many=True)
    forfeit_winner = TournamentPlayerRefSerializer(allow_null=True)
    games = GameBriefSerializer(many=True)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    explanation = serializers.ListField(child=serializers.CharField())
    published_at = serializers.DateTimeField(allow_null=True)
    scheduled_at = serializers.DateTimeField(allow_null=True, help_text="When the round is to start (the director's "
                                             "setting); null: not set.")
    published_head = serializers.CharField(
        allow_null=True, help_text="SEQ:HASH of the tournament log's row that published the round (its chain head "
                                   "then): keep a copy, verify_log --head checks the record still leads to it.")
    matches = MatchSerializer(many=True)


def match_data(match: Any) -> dict[str, Any]:
    games = []
    for mg in match.match_games.all():
        g = mg.game
        games.append({
            "id": g.pk, "number": mg.number,
            "black": {"id": g.black_id, "name": match.player_one.name if g.black_id == match.player_one_id
                      else match.player_two.name},
            "white": {"id": g.white_id, "name": match.player_one.name if g.white_id == match.player_one_id
                      else match.player_two.name},
            "start_fen": g.initial_fen, "ballot": mg.ballot_number, "status": g.status, "result": g.result,
            "termination": g.termination,
        })
    return {
        "id": match.pk, "board": match.board, "kind": match.kind, "player_one": player_ref(match.player_one),
        "player_two": player_ref(match.player_two), "explanation": match.explanation, "edited": match.edited,
        "lots": {"seed": match.lots_seed, "black_first": player_ref(match.first_black)} if match.lots_seed else None,
        "ballots": match.ballots, "forfeit_winner": player_ref(match.forfeit_winner), "games": games,
    }


def round_data(round_: Round) -> dict[str, Any]:
    return {"number": round_.number, "status": round_.status, "explanation": round_.explanation,
            "published_at": round_.published_at, "scheduled_at": round_.scheduled_at,
            "published_head": round_published_head(round_.tournament_id, round_.number)
            if round_.status != Round.Status.PREVIEW else None,
            "matches": [match_data(m) for m in round_.matches.all()]}


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = TournamentPlayerRefSerializer()
    points = serializers.FloatField()
    tiebreaks = serializers.DictField(child=serializers.FloatField(), help_text="By name, in the tournament's order.")
    game_points = serializers.FloatField()
    wins = serializers.IntegerField()
    played = serializers.IntegerField()
    withdrawn = serializers.BooleanField()


def standings_data(rows: list[Any]) -> list[dict[str, Any]]:
    return [{"rank": r.rank, "player": player_ref(r.player), "points": r.points, "tiebreaks": r.tiebreaks,
             "game_points": r.game_points, "wins": r.wins, "played": r.played, "withdrawn": r.withdrawn}
            for r in rows]


class CrosstableCellSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    opponent = serializers.IntegerField(allow_null=True)
    opponent_rank = serializers.IntegerField(allow_null=True)
    game_points = serializers.FloatField()
    opponent_game_points = serializers.FloatField()
    match_points = serializers.FloatField()
    kind = serializers.CharField()
    mark = serializers.CharField(help_text="As the crosstable shows it: 3:2-0, bye, 3+ or 3- (a forfeit).")


class CrosstableRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = TournamentPlayerRefSerializer()
    points = serializers.FloatField()
    rounds = CrosstableCellSerializer(many=True)
    cells = serializers.ListField(child=serializers.CharField(),
                                  help_text="Round robin only: game points against each player, in row order.")


class CrosstableSerializer(serializers.Serializer):
    players = TournamentPlayerRefSerializer(many=True)
    rows = CrosstableRowSerializer(many=True)


class RecordLineSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    board = serializers.IntegerField()
    kind = serializers.CharField()
    opponent = TournamentPlayerRefSerializer(allow_null=True)
    game_points = serializers.FloatField()
    opponent_game_points = serializers.FloatField()
    outcome = serializers.CharField()
    games = serializers.ListField(child=serializers.DictField())


class PlayerRecordSerializer(serializers.Serializer):
    player = TournamentPlayerRefSerializer()
    standing = StandingsRowSerializer(allow_null=True)
    matches = RecordLineSerializer(many=True)


class TournamentLogSerializer(serializers.ModelSerializer):
    actor = serializers.SlugRelatedField(slug_field="username", read_only=True,
                                         help_text="The username (null: the system); to anonymous callers, official, "
                                         "and the names in data (referees) by role words.")
    supersedes = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)

    class Meta:
        model = TournamentLog
        fields = ["id", "seq", "kind", "actor", "from_status", "to_status", "reason", "data", "supersedes", "created_at",
                  "prev_hash", "hash", "key_id"]
        read_only_fields = fields

    def to_representation(self, instance: TournamentLog) -> dict:
        data = super().to_representation(instance)
        if _names_hidden_in(self.context):
            data = entry_hidden(data, note_key="reason")
        return data


def crosstable_row(row: Any) -> dict[str, Any]:
    return {"rank": row.rank, "player": player_ref(row.player), "points": row.points, "cells": row.cells,
            "rounds": [{"round": c.round, "opponent": c.opponent, "opponent_rank": c.opponent_rank,
                        "game_points": c.game_points, "opponent_game_points": c.opponent_game_points,
                        "match_points": c.match_points, "kind": c.kind, "mark": c.mark} for c in row.rounds]}
