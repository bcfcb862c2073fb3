"""Pages of tournaments: the public list and pages, a player's own view, the director's dashboard.

The dashboard's forms post to views that call the same services as the API; a refused request
comes back as a message on the page it was made from.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.roles import is_director
from arbitration.services import game_referees_set
from core.api import AppError, shortened
from core.limits import MAX_ID, STATEMENT_MAX_LENGTH
from core.text import no_control_characters
from games.models import Game, ProgressRule, RuleSet
from players.models import RATING_MAX, RATING_MIN, Player, PlayerClaim
from tournaments import selectors, services
from tournaments.log import round_published_head, tournament_head_text
from tournaments.models import Entry, Round, Tournament
from tournaments.scoring.tiebreaks import CATALOGUE, name_of
from tournaments.serializers import MAX_PAIRINGS, MAX_ROUNDS
from tournaments.svg import position_svg, rating_chart_svg

# --- forms --------------------------------------------------------------------------------------
#: The tiebreaks the form offers: FIDE's catalogue by code, then the draughts ones (the API also takes
#: the older names buchholz, median_buchholz, sonneborn_berger, head_to_head).
FORM_TIEBREAKS = [*CATALOGUE, "wins", "game_points"]

CLOCK_CHOICES = [("none", "No clock"), ("per-move", "Per move (Laws 24-25)"),
                 ("moves-in-time", "Moves in time (e.g. 30 moves in 60 minutes)")]


class ClockForm(forms.Form):
    """The time control of a tournament's games; the services check it (``ClockControl``)."""

    clock = forms.ChoiceField(choices=CLOCK_CHOICES, initial="none", required=False, label="Clock")
    clock_move_seconds = forms.FloatField(required=False, initial=300, label="Seconds a move (per move)")
    clock_moves = forms.IntegerField(required=False, initial=30, label="Moves (moves in time)")
    clock_seconds = forms.FloatField(required=False, initial=3600, label="Seconds for them (moves in time)")
    clock_increment_seconds = forms.FloatField(required=False, initial=0, label="Increment a move, seconds")


def _clock_from(data: dict[str, Any]) -> dict[str, Any] | None:
    """Returns the clock control JSON the form describes (None: no clock)."""
    control = data.get("clock") or "none"
    if control == "none":
        return None
    if control == "per-move":
        fields = {"move_seconds": data.get("clock_move_seconds")}
    else:
        fields = {"moves": data.get("clock_moves"), "seconds": data.get("clock_seconds"),
                  "increment_seconds": data.get("clock_increment_seconds")}
    return {"control": control, **{k: v for k, v in fields.items() if v is not None}}


def _clock_initial(control: dict[str, Any] | None) -> dict[str, Any]:
    """Returns the clock form's initial values for a stored control."""
    if not control or control.get("control") == "none":
        return {"clock": "none"}
    initial = {"clock": control.get("control", "per-move")}
    for name in ("move_seconds", "moves", "seconds", "increment_seconds"):
        if name in control:
            value = control[name]
            # 1800, not "1800.0": a whole number of seconds is shown as people write it
            initial[f"clock_{name}"] = int(value) if isinstance(value, float) and value.is_integer() else value
    return initial


def clock_text(control: dict[str, Any] | None) -> str:
    """Describes a clock control in a few words."""
    if not control or control.get("control") == "none":
        return "no clock"
    if control.get("control") == "per-move":
        return f"{control.get('move_seconds', 300):g} s a move"
    text = f"{control.get('moves')} moves in {float(control.get('seconds', 0)) / 60:g} min"
    if control.get("increment_seconds"):
        text += f" + {control['increment_seconds']:g} s a move"
    return text


#: What the manage page says when the tournament's status changes.
STATUS_NOW = {
    Tournament.Status.DRAFT: "The tournament is a draft again.",
    Tournament.Status.REGISTRATION: "Registration is open: enter the players.",
    Tournament.Status.RUNNING: "The tournament is running: pair the next round when the players are checked in.",
    Tournament.Status.FINISHED: "The tournament is finished: its standings are final.",
}


#: The decks a form offers (docs/openings.md).
DECK_CHOICES = [("", "The opening's own deck"), ("acf", "ACF 3-move deck (156)"),
                ("acf-144", "ACF 3-move deck of 144 (crossboard)"), ("computer-tough", "Computer tough deck (50)"),
                ("two-move", "2-move restriction (43)"), ("eleven-man", "11-man ballot (2,400)")]
GAMES_CHOICES = [(1, "1 game"), (2, "2 games (one opening, colours reversed)"),
                 (4, "4 games (two openings, each twice, colours reversed)")]


def _numbers(text: str, field: str) -> list[int]:
    """Reads opening numbers typed as "3, 13 26"."""
    words = [w for w in re.split(r"[\s,;]+", text or "") if w]
    if not all(w.isdigit() and len(w) <= 5 for w in words):
        raise services.InvalidInput.field(field, "Opening numbers, separated by commas.")
    return [int(w) for w in words]


class OpeningsForm(forms.Form):
    """The openings, deck and round length of a tournament (set before it runs)."""

    opening = forms.ChoiceField(choices=Tournament.Opening.choices)
    deck = forms.ChoiceField(choices=DECK_CHOICES, required=False)
    deck_name = forms.CharField(max_length=80, required=False, validators=[no_control_characters], label="Deck title",
                                help_text="What you call the deck, e.g. Masters' deck.")
    deck_barred = forms.CharField(max_length=400, required=False, help_text="Opening numbers barred, e.g. 5, 12.")
    deck_added = forms.CharField(max_length=400, required=False,
                                 help_text="Opening numbers added from the same list (a barred ACF opening, say).")
    games_per_match = forms.TypedChoiceField(choices=GAMES_CHOICES, coerce=int, initial=2, label="Games a round")
    score_by = forms.ChoiceField(choices=Tournament.ScoreBy.choices, label="Scored", required=False,
                                 help_text="Empty: per round.")


def openings_values(data: dict[str, Any]) -> dict[str, Any]:
    """Returns an OpeningsForm's cleaned data as the services take it."""
    return {"opening": data["opening"], "deck": data.get("deck") or "", "deck_name": data.get("deck_name") or "",
            "deck_barred": _numbers(data.get("deck_barred", ""), "deck_barred"),
            "deck_added": _numbers(data.get("deck_added", ""), "deck_added"),
            "games_per_match": data["games_per_match"], "score_by": data.get("score_by") or Tournament.ScoreBy.ROUND}


class TournamentForm(OpeningsForm, ClockForm):
    field_order = ["name", "slug", "format", "rounds", "pairing_system", "acceleration", "half_point_byes",
                   "byes_closed_rounds", "games_per_match", "score_by", "opening", "deck", "deck_name",
                   "deck_barred", "deck_added", "rule_set", "progress_rule",
                   "venue", "start_date", "end_date", "rated", "referees", "tiebreaks"]  # then the clock

    name = forms.CharField(max_length=200, validators=[no_control_characters])
    slug = forms.SlugField(max_length=80, required=False, help_text="Empty: made from the name.")
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, required=False, help_text="Swiss only.")
    pairing_system = forms.ChoiceField(choices=Tournament.PairingSystem.choices, required=False,
                                       initial=Tournament.PairingSystem.WEIGHTED, help_text="Swiss only.")
    acceleration = forms.ChoiceField(choices=Tournament.Acceleration.choices, required=False,
                                     initial=Tournament.Acceleration.NONE, help_text="Swiss, Dutch system only.")
    half_point_byes = forms.IntegerField(min_value=0, max_value=MAX_ROUNDS, required=False, initial=0,
                                         label="Half-point byes a player may ask for",
                                         help_text="Swiss only; 0: none.")
    byes_closed_rounds = forms.IntegerField(min_value=0, max_value=MAX_ROUNDS, required=False, initial=0,
                                            label="Last rounds closed to half-point byes", help_text="Swiss only.")
    rule_set = forms.ChoiceField(choices=RuleSet.choices)
    progress_rule = forms.ChoiceField(choices=ProgressRule.choices)
    venue = forms.CharField(max_length=200, required=False, validators=[no_control_characters])
    start_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    rated = forms.BooleanField(required=False)
    referees = forms.CharField(required=False, max_length=STATEMENT_MAX_LENGTH,
                               help_text="Usernames, separated by commas.")
    tiebreaks = forms.MultipleChoiceField(choices=[(t, f"{name_of(t)} ({t})") for t in FORM_TIEBREAKS], required=False,
                                          widget=forms.CheckboxSelectMultiple,
                                          help_text="In the order listed; none ticked: the format's default.")


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=120, validators=[no_control_characters])
    club = forms.CharField(max_length=120, required=False, validators=[no_control_characters])
    federation = forms.CharField(max_length=60, required=False, validators=[no_control_characters])
    federation_id = forms.CharField(max_length=40, required=False, validators=[no_control_characters])
    rating = forms.IntegerField(required=False, min_value=RATING_MIN, max_value=RATING_MAX)


def _usernames(text: str) -> list[str]:
    return [u.strip() for u in (text or "").replace(";", ",").split(",") if u.strip()]


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _int(value: Any, field: str, what: str, maximum: int = MAX_ID) -> int:
    """Returns a posted number from 0 to ``maximum``, or refuses (a message, not a server error) naming what was
    expected."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError) as error:
        raise services.InvalidInput.field(field, f"{what} must be a number, not {shortened(repr(value), 40)}.") \
            from error
    if not 0 <= number <= maximum:
        raise services.InvalidInput.field(field, f"{what} must be a number from 0 to {maximum}.")
    return number


def _int_or_none(value: Any, field: str, what: str) -> int | None:
    return _int(value, field, what) if value not in (None, "") else None


# --- public pages -------------------------------------------------------------------------------


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    """Shows every tournament with its format, status and number of players."""
    return render(request, "tournaments/list.html", {"tournaments": selectors.tournament_list()})


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Shows a tournament: its rounds with pairings and results, the standings and the crosstable."""
    tournament = get_object_or_404(Tournament.objects.prefetch_related("directors", "referees"), slug=slug)
    rows, table = selectors.crosstable(tournament)
    rounds = [r for r in selectors.rounds_with_matches(tournament) if r.status != Round.Status.PREVIEW
              or services.is_director_of(tournament, request.user)]
    selectors.match_scores_attach(tournament, rounds)
    return render(request, "tournaments/detail.html", {
        "tournament": tournament, "rounds": rounds, "standings": rows, "crosstable": table,
        "dense_crosstable": tournament.format in (Tournament.Format.ROUND_ROBIN, Tournament.Format.DOUBLE_ROUND_ROBIN),
        "round_numbers": selectors.crosstable_round_numbers(table),
        "tiebreaks": list(tournament.tiebreaks or []),
        "is_tournament_director": services.is_director_of(tournament, request.user),
        "log_head": tournament_head_text(tournament),
        "my_check_in": _my_check_in(tournament, request.user),
        "my_player_id": _my_player_id(request.user),
    })


def _my_player_id(user: Any) -> int | None:
    """The signed-in user's player (his board is marked on the pairings), or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).values_list("pk", flat=True).first()


def _my_check_in(tournament: Tournament, user: Any) -> dict[str, Any] | None:
    """The signed-in player's own check-in for the next round, when he is entered (None otherwise)."""
    if not getattr(user, "is_authenticated", False) or tournament.status not in (
            Tournament.Status.REGISTRATION, Tournament.Status.RUNNING):
        return None
    entry = Entry.objects.filter(tournament=tournament, player__user=user, status=Entry.Status.ACTIVE).first()
    if entry is None:
        return None
    data = selectors.presence_data(tournament)
    return {"round": data["round"], "player": entry.player_id,
            "present": next((p["present"] for p in data["players"] if p["player"] == entry.player_id), None),
            "byes": [b for b in selectors.byes_data(tournament) if b["player"] == entry.player_id]
            if tournament.format == Tournament.Format.SWISS else []}


@require_GET
def live_boards(request: HttpRequest, slug: str) -> HttpResponse:
    """Shows every game of the tournament's current round as a small board that follows play (config/live.py)."""
    tournament = _tournament(slug)
    current = tournament.rounds.exclude(status=Round.Status.PREVIEW).order_by("-number").first()
    games = (list(Game.objects.filter(round=current).select_related("black", "white").order_by("id"))
             if current is not None else [])
    return render(request, "tournaments/live.html", {"tournament": tournament, "round": current, "games": games})


@require_GET
def tournament_player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Shows a player's record in a tournament, round by round."""
    tournament = _tournament(slug)
    entry = get_object_or_404(Entry.objects.select_related("player"), tournament=tournament, player_id=player_id)
    standing = next((r for r in selectors.standings(tournament) if r.player.pk == player_id), None)
    return render(request, "tournaments/player_record.html", {
        "tournament": tournament, "player": entry.player, "entry": entry, "standing": standing,
        "lines": selectors.player_record(tournament, entry.player), "tiebreaks": list(tournament.tiebreaks or []),
    })


@require_GET
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    """Shows a player's page: his tournaments, rating history and recent games; to a signed-in user, his claim of
    the record (or the form to make one); to the player and his keepers, the record of his account, and to his
    keepers the claims to decide."""
    player = get_object_or_404(Player, pk=player_id)
    history = list(selectors.player_rating_history(player))
    context: dict[str, Any] = {
        "player": player, "tournaments": selectors.player_tournaments(player),
        "history": history, "recent": selectors.player_games_finished(player, 20),
        "rating_chart": mark_safe(_rating_chart(history)),  # noqa: S308 - escaped by tournaments.svg
    }
    user = request.user
    if user.is_authenticated:
        keeper = services.may_edit_player(player, user)
        claims = services.claims_visible_to(player, user)
        plays_as = Player.objects.filter(user=user).first()
        waiting = any(c.user_id == user.pk and c.status == "pending" for c in claims)
        context.update({
            "keeper": keeper, "claims": claims, "is_self": player.user_id == user.pk,
            "may_claim": player.user_id is None and plays_as is None and not waiting
            and not PlayerClaim.objects.filter(user=user, status=PlayerClaim.Status.PENDING).exists(),
            "account_record": selectors.player_account_record(player)
            if keeper or player.user_id == user.pk else [],
        })
    return render(request, "tournaments/player.html", context)


def _player_act(request: HttpRequest, player_id: int, action: Callable[[Player], str]) -> HttpResponse:
    """Runs a write on a player's account from his page; a refusal comes back as a message there."""
    player = get_object_or_404(Player, pk=player_id)
    try:
        problem = _posted_problem(request)
        if problem is not None:
            raise services.InvalidInput(problem)
        messages.success(request, action(player))
    except AppError as error:
        fields = error.details.get("fields") if isinstance(error.details, dict) else None
        detail = "; ".join(f"{name}: {' '.join(problems)}" for name, problems in fields.items()) if fields else ""
        messages.error(request, f"{error.message} {detail}".strip())
    return redirect(reverse("tournaments:player", kwargs={"player_id": player.pk}) + "#account")


def _claim_of(player_id: int, claim_id: int) -> PlayerClaim:
    claim = PlayerClaim.objects.select_related("player").filter(pk=claim_id, player_id=player_id).first()
    if claim is None:
        raise Http404("No such claim on this player.")
    return claim


@login_required
@require_POST
def player_claim(request: HttpRequest, player_id: int) -> HttpResponse:
    def act(player: Player) -> str:
        services.player_claim(acting_user=request.user, player=player,
                              statement=request.POST.get("statement", "")[:STATEMENT_MAX_LENGTH])
        return (f"Your claim of {player.name} is recorded: his keeper (the director who registered him, or a "
                "federation administrator) approves or refuses it.")
    return _player_act(request, player_id, act)


@login_required
@require_POST
def player_claim_decide(request: HttpRequest, player_id: int, claim_id: int) -> HttpResponse:
    if not services.may_edit_player(_claim_of(player_id, claim_id).player, request.user):
        raise PermissionDenied("Only the player's keeper or a federation administrator decides a claim on him.")

    def act(player: Player) -> str:
        claim = services.player_claim_decide(acting_user=request.user, claim=_claim_of(player_id, claim_id),
                                             approve=request.POST.get("decision") == "approve",
                                             reason=request.POST.get("reason", "")[:STATEMENT_MAX_LENGTH])
        return f"Claim {claim.pk} {claim.get_status_display().lower()}."
    return _player_act(request, player_id, act)


@login_required
@require_POST
def player_claim_withdraw(request: HttpRequest, player_id: int, claim_id: int) -> HttpResponse:
    if _claim_of(player_id, claim_id).user_id != request.user.pk:
        raise PermissionDenied("Only the claimant withdraws his claim.")

    def act(player: Player) -> str:
        services.player_claim_withdraw(acting_user=request.user, claim=_claim_of(player_id, claim_id))
        return "Your claim is withdrawn."
    return _player_act(request, player_id, act)


@login_required
@require_POST
def player_unlink(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    if not (request.user.is_superuser or player.user_id == request.user.pk):
        raise PermissionDenied("Only the player himself or a federation administrator unlinks his account.")

    def act(player: Player) -> str:
        services.player_unlink(acting_user=request.user, player=player,
                               reason=request.POST.get("reason", "")[:STATEMENT_MAX_LENGTH])
        return f"The account is unlinked from {player.name}."
    return _player_act(request, player_id, act)


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """Shows the signed-in player his next game (board, colour, ballot, clock), his results and his rating chart."""
    player = Player.objects.filter(user=request.user).first()
    context: dict[str, Any] = {"player": player, "account_links": selectors.account_links(request.user)}
    if player is not None:
        pending = selectors.player_next_games(player, timezone.now())
        results = selectors.player_past_games(player)
        history = list(selectors.player_rating_history(player))
        context.update({"next_game": pending[0] if pending else None, "pending": pending[1:],
                        "next_position": mark_safe(position_svg(pending[0].game.fen)) if pending else "",  # noqa: S308
                        "results": results, "unsigned": selectors.unsigned_by(player, results), "history": history,
                        "appeals_open": selectors.appeals_open(results, timezone.now()),
                        "rating_chart": mark_safe(_rating_chart(history)),  # noqa: S308 - escaped by tournaments.svg
                        "tournaments": selectors.player_tournaments(player)})
    return render(request, "tournaments/me.html", context)


def _rating_chart(history: list[Any]) -> str:
    """Returns the SVG chart of a rating history: the first rating before, then after each tournament."""
    if not history:
        return ""
    first = history[0]
    points = [("start", first.rating_before)] if first.rating_before is not None else []
    points += [(row.tournament.name, row.rating_after) for row in history]
    return rating_chart_svg(points)


@login_required
@require_GET
def my_boards(request: HttpRequest) -> HttpResponse:
    """Shows a referee the games assigned to him now, each a click from its console, followed live (one stream
    for all of them; ``static/js/my-boards.js``)."""
    return render(request, "tournaments/boards.html",
                  {"boards": selectors.referee_boards(request.user, timezone.now())})


@require_GET
def player_list(request: HttpRequest) -> HttpResponse:
    """Shows every registered player with his club and rating."""
    return render(request, "tournaments/players.html", {"players": selectors.players_list()})


# --- printing: the pairing sheet, the scoresheets, standings and crosstable --------------------


def _printed_round(slug: str, number: int) -> tuple[Tournament, Round, list[Any]]:
    tournament = _tournament(slug)
    try:
        round_, cards = selectors.round_cards(tournament, number)
    except Round.DoesNotExist as error:
        raise Http404(f"Round {number} of {tournament.name} is not published.") from error
    return tournament, round_, cards


@require_GET
def print_pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Shows a round's pairing sheet for printing: board, players, colours, ballot opening."""
    tournament, round_, cards = _printed_round(slug, number)
    return render(request, "tournaments/print/pairings.html",
                  {"tournament": tournament, "round": round_, "cards": cards,
                   "published_head": round_published_head(tournament.pk, round_.number)})


SCORESHEET_LINES = 50


@require_GET
def print_scoresheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Shows one scoresheet a page for each game of a round (``?game=`` one game): ballot written, lines numbered."""
    tournament, round_, cards = _printed_round(slug, number)
    wanted = request.GET.get("game")
    if wanted:
        cards = [c for c in cards if str(c.game.pk) == wanted]
        if not cards:
            raise Http404("No such game in this round.")
    sheets = [{"card": c, "lines": _scoresheet_lines(c)} for c in cards]
    return render(request, "tournaments/print/scoresheets.html",
                  {"tournament": tournament, "round": round_, "sheets": sheets})


def _scoresheet_lines(card: Any) -> list[dict[str, Any]]:
    """Returns the numbered lines of a scoresheet; with a ballot, its moves are written on the first lines."""
    moves = card.ballot["moves"].split() if card.ballot else []
    lines = []
    for number in range(1, SCORESHEET_LINES + 1):
        black = moves[2 * (number - 1)] if 2 * (number - 1) < len(moves) else ""
        white = moves[2 * number - 1] if 2 * number - 1 < len(moves) else ""
        lines.append({"number": number, "black": black, "white": white})
    return lines


@require_GET
def print_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Shows the standings and the crosstable laid out for A4 or US Letter."""
    tournament = _tournament(slug)
    rows, table = selectors.crosstable(tournament)
    return render(request, "tournaments/print/standings.html", {
        "tournament": tournament, "standings": rows, "crosstable": table,
        "dense_crosstable": tournament.format in (Tournament.Format.ROUND_ROBIN, Tournament.Format.DOUBLE_ROUND_ROBIN),
        "round_numbers": selectors.crosstable_round_numbers(table),
        "tiebreaks": list(tournament.tiebreaks or []), "printed_at": timezone.now(),
    })


# --- the director's dashboard -----------------------------------------------------------------


def _director_only(request: HttpRequest) -> None:
    if not is_director(request.user):
        raise PermissionDenied("Only a tournament director may use the dashboard.")


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """Lists the director's tournaments and creates a new one."""
    _director_only(request)
    form = TournamentForm(request.POST or None, initial={"opening": Tournament.Opening.THREE_MOVE_BALLOT})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(
                acting_user=request.user, name=data["name"], slug=data["slug"] or "", format=data["format"],
                round_count=data["rounds"], **openings_values(data),
                rule_set=data["rule_set"], progress_rule=data["progress_rule"], venue=data["venue"],
                start_date=data["start_date"], end_date=data["end_date"], rated=data["rated"],
                referees=_usernames(data["referees"]), tiebreaks=data["tiebreaks"] or None,
                clock_control=_clock_from(data), **_pairing_settings(data),
            )
        except AppError as error:
            _form_errors(form, error)
        else:
            messages.success(request, f"{tournament.name} is created, in draft.")
            return redirect("tournaments:manage", slug=tournament.slug)
    mine = selectors.tournament_list()
    if not request.user.is_superuser:
        mine = mine.filter(directors=request.user)
    return render(request, "tournaments/dashboard.html", {"form": form, "tournaments": mine})


def _pairing_settings(data: dict[str, Any]) -> dict[str, Any]:
    """Returns a Swiss's pairing settings from a form's cleaned data (the model's defaults for those left empty)."""
    return {"pairing_system": data.get("pairing_system") or Tournament.PairingSystem.WEIGHTED,
            "acceleration": data.get("acceleration") or Tournament.Acceleration.NONE,
            "half_point_byes": data.get("half_point_byes") or 0,
            "byes_closed_rounds": data.get("byes_closed_rounds") or 0}


class PairingForm(forms.Form):
    pairing_system = forms.ChoiceField(choices=Tournament.PairingSystem.choices)
    acceleration = forms.ChoiceField(choices=Tournament.Acceleration.choices)
    half_point_byes = forms.IntegerField(min_value=0, max_value=MAX_ROUNDS, label="Half-point byes a player may ask for")
    byes_closed_rounds = forms.IntegerField(min_value=0, max_value=MAX_ROUNDS,
                                            label="Last rounds closed to half-point byes")


def _form_errors(form: forms.Form, error: AppError) -> None:
    fields = error.details.get("fields") if isinstance(error.details, dict) else None
    if fields:
        for name, problems in fields.items():
            name = name.replace(".", "_")  # clock.move_seconds is the form's clock_move_seconds
            target = name if name in form.fields else None
            for problem in problems:
                form.add_error(target, problem)
    else:
        form.add_error(None, error.message)


@login_required
def manage(request: HttpRequest, slug: str) -> HttpResponse:
    """Shows the director's page of one tournament: status, staff, entries, rounds, results, log."""
    tournament = get_object_or_404(Tournament.objects.prefetch_related("directors", "referees"), slug=slug)
    if not services.is_director_of(tournament, request.user):
        raise PermissionDenied("Only a director of this tournament may manage it.")
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player").order_by("seed", "id"))
    entered = {e.player_id for e in entries}
    rounds = selectors.rounds_with_matches(tournament)
    preview = next((r for r in rounds if r.status == Round.Status.PREVIEW), None)
    allowed = services.ALLOWED_TRANSITIONS.get(tournament.status, ())
    desk = _desk(tournament, rounds, preview, entries)
    return render(request, "tournaments/manage.html", {
        "tournament": tournament, "entries": entries, "desk": desk,
        "takes_entries": tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION) or (
            tournament.status == Tournament.Status.RUNNING and tournament.format == Tournament.Format.SWISS),
        "available": Player.objects.exclude(pk__in=entered).order_by("name"),
        "rounds": rounds, "preview": preview, "preview_players": [e.player for e in entries],
        "next_status": allowed[0] if allowed else None, "player_form": PlayerForm(),
        "referees": ", ".join(u.username for u in tournament.referees.all()),
        "arbiters": ", ".join(u.username for u in tournament.arbiters.order_by("username")),
        "games_needing_referee": selectors.games_needing_referee(tournament),
        "results_unconfirmed": selectors.results_unconfirmed(tournament),
        "check_in": selectors.presence_data(tournament),
        "log": selectors.tournament_log(tournament), "standings": selectors.standings(tournament),
        "results": [choice for choice in Game.Result.choices],
        "clock_form": ClockForm(initial=_clock_initial(tournament.clock_control)),
        "openings_form": OpeningsForm(initial={
            "opening": tournament.opening, "deck": tournament.deck, "deck_name": tournament.deck_name,
            "deck_barred": ", ".join(map(str, tournament.deck_barred or [])),
            "deck_added": ", ".join(map(str, tournament.deck_added or [])),
            "games_per_match": tournament.games_per_match, "score_by": tournament.score_by}),
        "clock_text": clock_text(tournament.clock_control), "time_zone": settings.TIME_ZONE,
        "pairing_form": PairingForm(initial={f: getattr(tournament, f) for f in PairingForm.base_fields}),
        "byes": selectors.byes_data(tournament), "prohibitions": selectors.prohibitions_data(tournament),
    })


#: The steps of running a tournament, in order, as the manage page shows them.
DESK_STEPS = [("entries", "Players"), ("check-in", "Check-in and pairing"), ("preview", "Preview and publish"),
              ("results", "Results"), ("finish", "Close")]


def _desk(tournament: Tournament, rounds: list[Round], preview: Round | None, entries: list[Entry]) -> dict[str, Any]:
    """Says where the tournament stands and the one next step: the step's key (``DESK_STEPS``), its words, the round
    whose results are being entered (its games still open, by board), and the steps for the page's overview."""
    published = [r for r in rounds if r.status != Round.Status.PREVIEW]
    last = published[-1] if published else None
    active = sum(1 for e in entries if e.status == Entry.Status.ACTIVE)
    current, open_games = None, []
    if last is not None and last.status != Round.Status.FINISHED and tournament.status == Tournament.Status.RUNNING:
        current = last
        for match in last.matches.all():
            for mg in match.match_games.all():
                if mg.game.status != Game.Status.FINISHED:
                    one_black = mg.game.black_id == match.player_one_id
                    black, white = (match.player_one, match.player_two) if one_black else (match.player_two,
                                                                                              match.player_one)
                    open_games.append({"game": mg.game.pk, "board": match.board, "number": mg.number,
                                       "black": black.name if black else "", "white": white.name if white else ""})
    status = tournament.status
    if status == Tournament.Status.DRAFT:
        step, text = "entries", ("Enter the players (search the registry, or paste or import new ones), then open "
                                 "registration.")
    elif status == Tournament.Status.REGISTRATION:
        step, text = ("entries", f"Enter at least 2 players ({active} so far).") if active < 2 else (
            "check-in", f"{active} players entered. Check them in if you like, then start the tournament.")
    elif status == Tournament.Status.FINISHED:
        step, text = "finished", "The tournament is finished: its standings are final."
    elif preview is not None:
        step, text = "preview", (f"Check round {preview.number}'s preview below (edit it with a reason if needed), "
                                 f"then publish it.")
    elif open_games:
        step, text = "results", (f"Enter round {current.number}'s results: {len(open_games)} game"
                                 f"{'s' if len(open_games) != 1 else ''} still to play.")
    else:
        total = services.rounds_total(tournament)
        complete = last is None or services.round_is_complete(last)
        played_out = (total is not None and last is not None and last.number >= total) or (
            total is None and last is not None and complete
            and sum(1 for m in last.matches.all() if m.player_two_id) <= 1)
        if not complete:
            step, text = "results", f"Round {last.number}'s matches are not all decided yet."
        elif played_out:
            step, text = "finish", "Every round is played: close the tournament to make the standings final."
        else:
            number = last.number + 1 if last else 1
            step, text = "check-in", f"Check in the players for round {number}, then pair it."
    keys = [key for key, _label in DESK_STEPS]
    at = keys.index(step) if step in keys else len(keys)
    return {"step": step, "text": text, "current": current, "open_games": open_games,
            "steps": [{"key": key, "label": label, "done": index < at, "now": index == at}
                      for index, (key, label) in enumerate(DESK_STEPS)]}


#: The anchors the management page's forms return to.
_ANCHOR = re.compile(r"#[-a-z0-9_]{1,40}\Z")


def _posted_problem(request: HttpRequest) -> str | None:
    """Returns why a posted form cannot be read at all (a NUL byte, which no text column holds; a field
    longer than any the page has), or None."""
    for name, values in request.POST.lists():
        for value in values:
            if "\x00" in value:
                return f"The field {shortened(name, 40)} holds a NUL character."
            if len(value) > STATEMENT_MAX_LENGTH:
                return f"The field {shortened(name, 40)} is longer than {STATEMENT_MAX_LENGTH} characters."
    return None


def _act(request: HttpRequest, slug: str, action: Callable[[Tournament], str | None]) -> HttpResponse:
    tournament = _tournament(slug)
    if not services.is_director_of(tournament, request.user):
        raise PermissionDenied("Only a director of this tournament may manage it.")
    anchor = request.POST.get("anchor", "")
    anchor = anchor if _ANCHOR.match(anchor) else ""
    problem = _posted_problem(request)
    try:
        if problem is not None:
            raise services.InvalidInput(problem)
        message = action(tournament)
    except AppError as error:
        fields = error.details.get("fields") if isinstance(error.details, dict) else None
        detail = "; ".join(f"{name}: {' '.join(problems)}" for name, problems in fields.items()) if fields else ""
        messages.error(request, f"{error.message} {detail}".strip())
    else:
        if message:
            messages.success(request, message)
    return redirect(reverse("tournaments:manage", kwargs={"slug": slug}) + anchor)


@login_required
@require_POST
def manage_status(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        t = services.tournament_status_set(acting_user=request.user, tournament=t, status=request.POST.get("status", ""),
                                           reason=request.POST.get("reason", ""))
        return STATUS_NOW.get(t.status, f"The tournament is now {t.get_status_display().lower()}.")
    return _act(request, slug, act)


@login_required
@require_POST
def manage_clock(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        cleaned = _cleaned(ClockForm(request.POST), "The clock form")
        t = services.tournament_update(acting_user=request.user, tournament=t,
                                       clock_control=_clock_from(cleaned),
                                       reason=request.POST.get("reason", ""))
        return f"Clock: {clock_text(t.clock_control)}; the games of rounds published from now on get it."
    return _act(request, slug, act)


@login_required
@require_POST
def manage_openings(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        cleaned = _cleaned(OpeningsForm(request.POST), "The openings form")
        t = services.tournament_update(acting_user=request.user, tournament=t, reason=request.POST.get("reason", ""),
                                       **openings_values(cleaned))
        return (f"Openings: {t.get_opening_display()}; {t.games_per_match} game(s) a round, scored "
                f"{t.get_score_by_display().lower()}.")
    return _act(request, slug, act)


@login_required
@require_POST
def manage_pairing(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        cleaned = _cleaned(PairingForm(request.POST), "The pairing form")
        changes = {f: v for f, v in cleaned.items() if v != getattr(t, f)}
        services.tournament_update(acting_user=request.user, tournament=t, reason=request.POST.get("reason", ""),
                                   **changes)
        return "Pairing settings saved." if changes else "Nothing changed."
    return _act(request, slug, act)


@login_required
@require_POST
def manage_bye(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        player = _int(request.POST.get("player"), "player", "The player")
        number = _int(request.POST.get("round"), "round", "The round", MAX_ROUNDS)
        if request.POST.get("cancel"):
            services.bye_cancel(acting_user=request.user, tournament=t, player=player, round_number=number)
            return f"The bye of round {number} is cancelled."
        bye = services.bye_request(acting_user=request.user, tournament=t, player=player, round_number=number,
                                   kind=request.POST.get("kind") or "half", reason=request.POST.get("reason", ""))
        return f"{bye.player.name}: {bye.get_kind_display().lower()} in round {number}."
    return _act(request, slug, act)


@login_required
@require_POST
def manage_prohibition(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        if request.POST.get("remove"):
            services.prohibition_remove(acting_user=request.user, tournament=t,
                                        prohibition=_int(request.POST.get("remove"), "remove", "The group"))
            return "Those players may meet again."
        ids = [_int(pid, "players", "A player") for pid in request.POST.getlist("players")]
        services.prohibition_set(acting_user=request.user, tournament=t, players=ids,
                                 until_round=_int_or_none(request.POST.get("until_round") or None, "until_round",
                                                          "The last round"),
                                 label=request.POST.get("label", ""))
        return f"{len(set(ids))} players are kept apart."
    return _act(request, slug, act)


@login_required
@require_POST
def manage_referees(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        t = services.tournament_referees_set(acting_user=request.user, tournament=t,
                                             referees=_usernames(request.POST.get("referees", "")))
        needing = t.games_needing_referee
        return "Referees saved; the games of rounds published from now on are assigned from them." + (
            f" Games that need a new referee: {', '.join(str(g) for g in needing)}." if needing else "")
    return _act(request, slug, act)


@login_required
@require_POST
def manage_game_referees(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        game_id = _int(request.POST.get("game"), "game", "The game")
        if not Game.objects.filter(pk=game_id, round__tournament=t).exists():
            raise services.InvalidInput.field("game", f"Game {game_id} is not a game of this tournament.")
        game_referees_set(acting_user=request.user, game_id=game_id,
                          referees=_usernames(request.POST.get("referees", "")))
        return f"Game {game_id}'s referees saved."
    return _act(request, slug, act)


@login_required
@require_POST
def manage_arbiters(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        window = _int_or_none(request.POST.get("appeal_window_minutes") or None, "appeal_window_minutes",
                              "The appeal window")
        with transaction.atomic():
            t = services.tournament_arbiters_set(acting_user=request.user, tournament=t,
                                                 arbiters=_usernames(request.POST.get("arbiters", "")))
            services.tournament_update(acting_user=request.user, tournament=t, appeal_window_minutes=window)
        return "Arbiters and the appeal deadline saved."
    return _act(request, slug, act)


@login_required
@require_POST
def manage_entry_add(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        ids = [_int(pid, "player", "A player") for pid in request.POST.getlist("player")]
        missed = request.POST.get("missed_rounds") or "zero"
        entries = services.entries_add(acting_user=request.user, tournament=t, players=ids, missed_rounds=missed)
        return f"{len(entries)} player(s) registered.{_stale_note(t)}"
    return _act(request, slug, act)


def _cleaned(form, what: str) -> dict:  # noqa: ANN001
    """Returns the form's cleaned data, or refuses the action naming each field's errors."""
    if not form.is_valid():
        raise services.InvalidInput(f"{what} is incomplete: " + "; ".join(
            f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
    return form.cleaned_data


def _stale_note(tournament: Tournament) -> str:
    preview = Round.objects.filter(tournament=tournament, status=Round.Status.PREVIEW).first()
    if preview is None or tournament.status != Tournament.Status.RUNNING:
        return ""
    return (f" Round {preview.number}'s preview was paired without them: discard it and pair the round again "
            "(or edit it) before publishing.")


@login_required
@require_POST
def manage_player_add(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        cleaned = _cleaned(PlayerForm(request.POST), "The new player's form")
        with transaction.atomic():  # no new player left behind if the entry is refused
            player = services.player_create(acting_user=request.user, **cleaned)
            services.entry_add(acting_user=request.user, tournament=t, player=player)
        return f"{player.name} is registered and entered.{_stale_note(t)}"
    return _act(request, slug, act)


#: The longest text of players an import reads (some 2,000 lines).
IMPORT_MAX_CHARS = 200_000


@login_required
@require_POST
def manage_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Previews the entry of players pasted one a line or read from a CSV file (nothing written), and, confirmed,
    registers the new ones and enters them all (``services.entries_import``); a refusal keeps the text."""
    tournament = _tournament(slug)
    if not services.is_director_of(tournament, request.user):
        raise PermissionDenied("Only a director of this tournament may manage it.")
    text = request.POST.get("csv", "")
    refusal: AppError | None = None
    report = None
    upload = request.FILES.get("file")
    try:
        if upload is not None and upload.size:
            if upload.size > IMPORT_MAX_CHARS:
                raise services.InvalidInput.field("file", f"The file is larger than {IMPORT_MAX_CHARS} bytes.")
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError as error:
                raise services.InvalidInput.field("file", "The file is not UTF-8 text: save it as CSV UTF-8.") \
                    from error
        if "\x00" in text:
            raise services.InvalidInput.field("csv", "The text holds a NUL character.")
        if len(text) > IMPORT_MAX_CHARS:
            raise services.InvalidInput.field("csv", f"The text is longer than {IMPORT_MAX_CHARS} characters.")
        confirm = request.POST.get("confirm") == "yes"
        report = services.entries_import(acting_user=request.user, tournament=tournament, text=text,
                                         dry_run=not confirm)
    except AppError as error:
        refusal = error
    else:
        if confirm:
            messages.success(request, f"{len(report.created)} new player(s) registered; "
                             f"{len(report.created) + len(report.entered)} player(s) entered.{_stale_note(tournament)}")
            return redirect(reverse("tournaments:manage", kwargs={"slug": slug}) + "#entries")
    fields = refusal.details.get("fields") if refusal is not None and isinstance(refusal.details, dict) else None
    return render(request, "tournaments/import.html", {
        "tournament": tournament, "csv": text, "report": report, "refusal": refusal,
        "refusal_detail": "; ".join(" ".join(problems) for problems in fields.values()) if fields else "",
    }, status=refusal.status_code if refusal is not None else 200)


@login_required
@require_POST
def manage_withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        entry = services.entry_withdraw(acting_user=request.user, tournament=t,
                                        player=_int(request.POST.get("player"), "player", "The player"),
                                        reason=request.POST.get("reason", ""))
        return f"{entry.player.name} has withdrawn."
    return _act(request, slug, act)


@login_required
@require_POST
def presence_mark(request: HttpRequest, slug: str) -> HttpResponse:
    """Marks a player present or absent for the next round: a director for anyone, a player for himself."""
    tournament = _tournament(slug)
    try:
        mark = services.presence_set(acting_user=request.user, tournament=tournament,
                                     player=_int(request.POST.get("player"), "player", "The player"),
                                     present=request.POST.get("present") == "yes")
    except AppError as error:
        if error.status_code == 403:
            raise PermissionDenied(error.message) from error
        messages.error(request, error.message)
    else:
        messages.success(request, f"{mark.player.name} is marked {'present' if mark.present else 'absent'} for "
                         f"round {mark.round_number}.")
    back = request.POST.get("next", "")
    if back not in ("manage", "detail"):
        back = "detail"
    return redirect(reverse(f"tournaments:{back}", kwargs={"slug": slug}) + "#check-in")


@login_required
@require_POST
def bye_ask(request: HttpRequest, slug: str) -> HttpResponse:
    """Asks for a half-point bye (or says he will be absent) for a round not yet paired, or cancels one: the
    player himself (a director may too)."""
    tournament = _tournament(slug)
    try:
        player = _int(request.POST.get("player"), "player", "The player")
        number = _int(request.POST.get("round"), "round", "The round", MAX_ROUNDS)
        if request.POST.get("cancel"):
            services.bye_cancel(acting_user=request.user, tournament=tournament, player=player, round_number=number)
            messages.success(request, f"Your bye in round {number} is cancelled.")
        else:
            bye = services.bye_request(acting_user=request.user, tournament=tournament, player=player,
                                       round_number=number, kind=request.POST.get("kind") or "half")
            messages.success(request, f"Round {number}: {bye.get_kind_display().lower()} recorded.")
    except AppError as error:
        if error.status_code == 403:
            raise PermissionDenied(error.message) from error
        messages.error(request, error.message)
    return redirect(reverse("tournaments:detail", kwargs={"slug": slug}) + "#check-in")


@login_required
@require_POST
def manage_pair(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        round_ = services.round_pair(acting_user=request.user, tournament=t,
                                     absent=request.POST.get("absent") or "forfeit")
        return f"Round {round_.number} is paired: check the preview, edit it if needed, then publish it."
    return _act(request, slug, act)


@login_required
@require_POST
def manage_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def act(t: Tournament) -> str:
        boards = _int(request.POST.get("boards", "0"), "boards", "The number of boards", MAX_PAIRINGS)
        pairings = []
        for board in range(1, boards + 1):
            one = _int_or_none(request.POST.get(f"one_{board}"), "pairings", f"Board {board}'s first player")
            two = _int_or_none(request.POST.get(f"two_{board}"), "pairings", f"Board {board}'s second player")
            if one or two:
                pairings.append((one, two))
        services.round_pairings_edit(acting_user=request.user, tournament=t, number=number,
                                     pairings=pairings, reason=request.POST.get("reason", ""))
        return f"The pairings of round {number} are edited."
    return _act(request, slug, act)


@login_required
@require_POST
def manage_forfeit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def act(t: Tournament) -> str:
        match = services.match_forfeit_set(acting_user=request.user, tournament=t, number=number,
                                           board=_int(request.POST.get("board"), "board", "The board"),
                                           winner=_int_or_none(request.POST.get("winner"), "winner", "The winner"),
                                           reason=request.POST.get("reason", ""))
        return f"Board {match.board} of round {number} is a forfeit."
    return _act(request, slug, act)


@login_required
@require_POST
def manage_schedule(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Sets (or, empty, clears) when a round is to start, read in the site's time zone (TIME_ZONE)."""
    def act(t: Tournament) -> str:
        text = request.POST.get("scheduled_at", "").strip()
        try:
            when = parse_datetime(text) if text else None
        except ValueError:
            when = None
        if text and when is None:
            raise services.InvalidInput.field("scheduled_at", "A date and time, like 2026-05-02T10:00.")
        if when is not None and timezone.is_naive(when):
            when = timezone.make_aware(when)
        round_ = services.round_schedule_set(acting_user=request.user, tournament=t, number=number, scheduled_at=when)
        if round_.scheduled_at is None:
            return f"Round {number} has no time set."
        return f"Round {number} starts at {timezone.localtime(round_.scheduled_at):%Y-%m-%d %H:%M}."
    return _act(request, slug, act)


@login_required
@require_http_methods(["GET", "POST"])
def manage_scoresheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Enters a round's games from the players' scoresheets pasted as one PDN text (all or nothing)."""
    tournament = _tournament(slug)
    if not services.is_director_of(tournament, request.user):
        raise PermissionDenied("Only a director of this tournament may manage it.")
    text = request.POST.get("pdn", "") if request.method == "POST" else ""
    refusal: AppError | None = None
    if request.method == "POST":
        try:
            games = services.round_scoresheets_enter(acting_user=request.user, tournament=tournament,
                                                     number=number, pdn=text)
        except AppError as error:
            refusal = error
        else:
            messages.success(request, f"{len(games)} game(s) of round {number} entered from their scoresheets.")
            return redirect(reverse("tournaments:manage", kwargs={"slug": slug}) + "#rounds")
    pending = (Game.objects.filter(round__tournament=tournament, round__number=number, ply=0)
               .exclude(status=Game.Status.FINISHED).select_related("black", "white").order_by("id"))
    return render(request, "tournaments/scoresheets.html", {
        "tournament": tournament, "number": number, "pdn": text, "refusal": refusal,
        "refused": refusal.details if refusal is not None else {}, "pending": pending,
    }, status=refusal.status_code if refusal is not None else 200)


@login_required
@require_POST
def manage_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def act(t: Tournament) -> str:
        services.round_publish(acting_user=request.user, tournament=t, number=number)
        return f"Round {number} is published: lots cast, games created."
    return _act(request, slug, act)


@login_required
@require_POST
def manage_discard(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def act(t: Tournament) -> str:
        services.round_discard(acting_user=request.user, tournament=t, number=number,
                               reason=request.POST.get("reason", ""))
        return f"The preview of round {number} is discarded."
    return _act(request, slug, act)


@login_required
@require_POST
def manage_result(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament) -> str:
        game_id = _int(request.POST.get("game"), "game", "The game")
        game = services.game_result_set(acting_user=request.user, tournament=t, game_id=game_id,
                                        result=request.POST.get("result", ""), reason=request.POST.get("reason", ""))
        return f"Game {game.pk}: {game.result} recorded."
    return _act(request, slug, act)
