"""The teacher's dashboard: an aiohttp web app in front of the :class:`Coordinator`.

Pages: ``/login`` (the PIN) and ``/`` (the dashboard: stations, plan, class list,
reports; plain HTML, CSS and JavaScript from ``static/``, nothing from the internet).
The page talks to a JSON API behind the same session:

===========================  ==========================================================
``GET /api/state``           the stations, plan, clocks and the games a plan may use
``GET /api/events``          Server-Sent Events: ``state`` (the same body) on changes
``POST /api/clock``          ``{"action": "pause", "station": null | 0.., "minutes": 1}``
``POST /api/plan``           ``{"plan": {...}, "stations": {device: 0..}, "session": ""}``
                             (``"swap": true``: the running plan on other devices;
                             ``"check": true``: only checked, nothing starts)
``POST /api/plan/clear``     no rotation any more
``POST /api/dismiss``        ``{"keys": [...]}``: problems (or offline cards) seen
``GET /api/roster``          the class list and its groups
``POST /api/roster``         ``{"op": "add" | "rename" | "group" | "remove", ...}``
``POST /api/roster/import``  a CSV file (multipart ``file``, ``replace`` "1") or CSV text;
                             ``preview`` "1": what it would do (``removed``), changing nothing
``GET /roster.csv``          the class list as CSV
``GET /badges.pdf``          ``?paper=a4|letter``: a badge for every student on the list
``GET /api/reports``         the sessions with finished games, games left out and hidden
``GET /api/results``         ``?session=``: that session's finished games (to hide one)
``POST /api/results/hide``   ``{"match": 12, "hidden": true}``: hide (or show) a game
``GET /report.csv|pdf``      ``?session=`` (absent: every session) the report; the PDF
                             on ``?paper=a4`` (the default) or ``letter``
``GET /api/skills``          ``?session=``: the skills view and the dice (issue 24)
``GET /skills.csv``          ``?session=``: the skills CSV
``GET /api/latency``         when each clock change reached every station
``GET /favicon.ico``         the tab's icon (``static/favicon.svg``)
===========================  ==========================================================

Every request but the login page and the icon needs a live session; every POST must come from this
page (its ``Origin``, or else ``Referer``, names this host): a form on another site
cannot press the teacher's buttons. Errors come back as ``{"error": sentence}``, but a
refused download (``/badges.pdf?paper=a3`` typed into the address bar) to a browser that
asks for a page (``Accept: text/html``) comes back as a page: the sentence and a link back.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from aiohttp import web

from tabletop.classroom import report, report_rows, skills
from tabletop.classroom.dice_lesson import fairness, read_dice
from tabletop.classroom.fleet.coordinator import ACTIONS, Coordinator
from tabletop.classroom.mistakes import KINDS, SKILLS
from tabletop.classroom.report_pdf import report_pdf as class_pdf
from tabletop.classroom.roster import ImportReport
from tabletop.classroom.rotation import GAME_TITLES, STATION_MODES, STATION_OPTIONS, Plan
from tabletop.classroom.students import (
    Student,
    decode_csv,
    read_class_list,
    shown_names,
    told_apart,
)
from tabletop.engine.errors import BadInput, TabletopError
from tabletop.engine.words import sentence
from tabletop.teacher.auth import COOKIE, DEVICE_COOKIE, DEVICE_DAYS, Gate, Locked, WrongPin

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
T = TypeVar("T")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
GATE = web.AppKey("gate", Gate)
CONSOLE = web.AppKey("console", Coordinator)
CLOSING = web.AppKey("closing", asyncio.Event)  # set when the server stops: streams end
EVENTS_EVERY = 0.2  # seconds between looks for a change (Server-Sent Events)
PING_EVERY = 15.0
MAX_UPLOAD = 512 * 1024
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}
# Over HTTPS only: browsers then refuse plain HTTP to this name for a year (RFC 6797).
HSTS = {"Strict-Transport-Security": "max-age=31536000"}
# Refusals whose exact message is for the log only: the teacher reads these words.
SAID = {
    "teacher.action": "The dashboard did not say what the clock should do: reload the page "
    "and press the button again.",
    "teacher.dismiss": "The dashboard did not say which problem to dismiss: reload the page "
    "and try again.",
}


def redirect_app(port: int) -> web.Application:
    """Plain HTTP that sends every request to the same address over HTTPS on ``port``
    (temporarily: a browser must not remember it if the dashboard goes back to HTTP)."""

    async def to_https(request: web.Request) -> web.StreamResponse:
        raise web.HTTPTemporaryRedirect(request.url.with_scheme("https").with_port(port))

    app = web.Application()
    app.router.add_route("*", "/{path:.*}", to_https)
    return app


def make_app(console: Coordinator, gate: Gate) -> web.Application:
    """The dashboard for a started ``console``, its door ``gate``."""
    app = web.Application(middlewares=[_guard], client_max_size=MAX_UPLOAD)
    app[GATE] = gate
    app[CONSOLE] = console
    app.on_startup.append(_opening)
    app.on_shutdown.append(_closing)
    app.router.add_get("/login", login_page)
    app.router.add_post("/login", login)
    app.router.add_post("/logout", logout)
    app.router.add_get("/", dashboard)
    app.router.add_get("/api/state", state)
    app.router.add_get("/api/events", events)
    app.router.add_post("/api/clock", clock)
    app.router.add_post("/api/plan", start_plan)
    app.router.add_post("/api/plan/clear", clear_plan)
    app.router.add_post("/api/dismiss", dismiss)
    app.router.add_get("/api/roster", roster)
    app.router.add_post("/api/roster", roster_change)
    app.router.add_post("/api/roster/import", roster_import)
    app.router.add_get("/roster.csv", roster_csv)
    app.router.add_get("/badges.pdf", badges)
    app.router.add_get("/api/reports", reports)
    app.router.add_get("/api/results", results)
    app.router.add_post("/api/results/hide", hide_result)
    app.router.add_get("/report.csv", report_csv)
    app.router.add_get("/report.pdf", report_pdf)
    app.router.add_get("/api/skills", skills_view)
    app.router.add_get("/skills.csv", skills_csv)
    app.router.add_get("/api/latency", latency)
    app.router.add_get("/favicon.ico", favicon)
    app.router.add_static("/static/", STATIC, append_version=True)
    return app


async def _opening(app: web.Application) -> None:
    app[CLOSING] = asyncio.Event()


async def _closing(app: web.Application) -> None:
    app[CLOSING].set()


# -- the guard -------------------------------------------------------------------------------

OPEN = ("/login", "/static/", "/favicon.ico")


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The checks below, and the security headers on every answer (HSTS over HTTPS)."""
    headers = {**HEADERS, **(HSTS if request.secure else {})}
    try:
        response = await _checked(request, handler)
    except web.HTTPException as exc:  # a redirect
        for key, value in headers.items():
            exc.headers.setdefault(key, value)
        raise
    if not response.prepared:
        for key, value in headers.items():
            response.headers.setdefault(key, value)
    return response


async def _checked(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Same-origin POSTs only; a session for everything but the login page and its CSS."""
    if request.method == "POST" and not _same_origin(request):
        log.warning("teacher: refused a %s %s from another origin", request.method, request.path)
        return _error("This request did not come from the dashboard page.", 403)
    if not request.path.startswith(OPEN) and not request.app[GATE].check(
        request.cookies.get(COOKIE)
    ):
        if request.path.startswith("/api/") or request.method == "POST":
            return _error("Please log in again.", 401)
        raise web.HTTPSeeOther("/login")
    try:
        return await handler(request)
    except BadInput as exc:
        log.info("teacher: %s %s: %s", request.method, request.path, exc)
        return _refused(request, SAID.get(exc.code) or sentence(exc.message), 400)
    except TabletopError as exc:
        log.error("teacher: %s %s: %s", request.method, request.path, exc)
        return _refused(request, sentence(exc.message), 500)


DEFAULT_PORTS = {"http": 80, "https": 443}


def _same_origin(request: web.Request) -> bool:
    """The ``Origin`` (else ``Referer``) names this scheme, host and port."""
    source = request.headers.get("Origin") or request.headers.get("Referer")
    if not source or source == "null":
        return False
    parts = urlsplit(source)
    try:
        port = parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:  # a port that is not a number
        return False
    ours = (request.scheme, (request.url.host or "").lower(), request.url.port)
    return (parts.scheme, (parts.hostname or "").lower(), port) == ours


def _error(sentence: str, status: int) -> web.Response:
    return web.json_response({"error": sentence}, status=status, headers=HEADERS)


# The dashboard's tab a download's link is on: a refused one's page links back to it.
TABS = {"/roster.csv": "roster", "/badges.pdf": "roster"}


def _refused(request: web.Request, said: str, status: int) -> web.Response:
    """The refusal as JSON, or as a page for a browser that opened a download (a GET
    outside ``/api/`` asking for HTML before JSON)."""
    if request.method != "GET" or request.path.startswith("/api/") or not _wants_page(request):
        return _error(said, status)
    page = (STATIC / "refused.html").read_text(encoding="utf-8")
    page = page.replace("<!--SAID-->", html.escape(said))
    page = page.replace("#TAB", "#" + TABS.get(request.path, "reports"))
    return web.Response(text=page, content_type="text/html", status=status, headers=HEADERS)


def _wants_page(request: web.Request) -> bool:
    """``Accept`` names ``text/html`` with a higher weight than ``application/json``
    (``*/*`` alone, a script's fetch, is not a browser asking for a page)."""
    weights = {"text/html": 0.0, "application/json": 0.0}
    for part in ",".join(request.headers.getall("Accept", [])).split(","):
        kind, *params = (p.strip() for p in part.split(";"))
        q = next((p[2:] for p in params if p.startswith("q=")), "1")
        if kind.lower() in weights:
            with contextlib.suppress(ValueError):  # q=nonsense: not asked for
                weights[kind.lower()] = float(q)
    return weights["text/html"] > weights["application/json"]


async def _on_console(request: web.Request, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
    """``fn`` run on the console's worker (the only thread that touches its journal)."""
    return await asyncio.wrap_future(request.app[CONSOLE].call(fn, *args, **kw))


async def _json_body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deep
        raise BadInput("teacher.json", "the request is not JSON") from None
    if not isinstance(body, dict):
        raise BadInput("teacher.json", "the request must be a JSON object")
    return body


# -- login -----------------------------------------------------------------------------------


async def login_page(request: web.Request, message: str = "", status: int = 200) -> web.Response:
    alert = f'<p class="alert" role="alert">{html.escape(message)}</p>' if message else ""
    page = (STATIC / "login.html").read_text(encoding="utf-8").replace("<!--ALERT-->", alert)
    return web.Response(text=page, content_type="text/html", status=status, headers=HEADERS)


async def login(request: web.Request) -> web.StreamResponse:
    gate = request.app[GATE]
    form = await request.post()
    client = request.remote or "?"
    device = request.cookies.get(DEVICE_COOKIE)
    try:
        token = gate.login(client, str(form.get("pin", "")), device)
    except Locked as exc:
        if exc.everyone:
            log.warning("teacher: every login paused (%d min): too many wrong PINs", exc.minutes)
        else:
            log.warning("teacher: login paused for %s (%d min)", client, exc.minutes)
        return await login_page(request, exc.sentence, 429)
    except WrongPin as exc:
        log.warning("teacher: wrong PIN from %s (%d so far)", client, gate.wrong_guesses)
        return await login_page(request, exc.sentence, 401)
    log.info("teacher: logged in from %s", client)
    done = web.HTTPSeeOther("/")
    done.set_cookie(
        COOKIE, token, httponly=True, samesite="Strict", path="/", secure=request.secure
    )
    if not gate.known_device(device):  # this browser is known from now on (auth.py)
        done.set_cookie(
            DEVICE_COOKIE,
            gate.device_token(),
            max_age=DEVICE_DAYS * 24 * 3600,
            httponly=True,
            samesite="Strict",
            path="/login",
            secure=request.secure,
        )
    raise done


async def logout(request: web.Request) -> web.StreamResponse:
    request.app[GATE].logout(request.cookies.get(COOKIE))
    done = web.HTTPSeeOther("/login")
    done.del_cookie(COOKIE, path="/")
    raise done


async def dashboard(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "index.html", headers=HEADERS)


async def favicon(request: web.Request) -> web.StreamResponse:
    """The browser tab's icon: a die (an SVG, asked for by this name as well)."""
    return web.FileResponse(STATIC / "favicon.svg", headers=HEADERS)


# -- stations and the plan -------------------------------------------------------------------


def _state(console: Coordinator) -> dict[str, Any]:
    body = console.snapshot()
    body["catalogue"] = [
        {
            "id": game,
            "title": title,
            "modes": [list(m) for m in STATION_MODES.get(game, ())],
            "options": [
                [key, name, [list(v) for v in values]]
                for key, name, values in STATION_OPTIONS.get(game, ())
            ],
        }
        for game, title in GAME_TITLES.items()
    ]
    body["groups"] = console.roster().groups()
    trouble = console.journal.trouble if console.journal is not None else None
    body["saving"] = sentence(trouble) if trouble else None  # None: results are saved
    return body


async def state(request: web.Request) -> web.Response:
    console = request.app[CONSOLE]
    return web.json_response(await _on_console(request, _state, console))


async def events(request: web.Request) -> web.StreamResponse:
    """Server-Sent Events: the state whenever it changes (and a ping now and then)."""
    console = request.app[CONSOLE]
    gate = request.app[GATE]
    closing = request.app[CLOSING]
    token = request.cookies.get(COOKIE)
    response = web.StreamResponse(
        headers={**HEADERS, "Content-Type": "text/event-stream", "X-Accel-Buffering": "no"}
    )
    await response.prepare(request)
    sent_version = -1
    quiet = 0.0
    try:
        while gate.check(token) and not closing.is_set():
            if console.version != sent_version:
                body = await _on_console(request, _state, console)
                sent_version = body["version"]
                await response.write(f"event: state\ndata: {json.dumps(body)}\n\n".encode())
                quiet = 0.0
            elif quiet >= PING_EVERY:
                await response.write(b": ping\n\n")
                quiet = 0.0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(closing.wait(), EVENTS_EVERY)
            quiet += EVENTS_EVERY
        if not closing.is_set():
            await response.write(b"event: logout\ndata: {}\n\n")
    except (ConnectionResetError, asyncio.CancelledError):
        pass
    return response


async def clock(request: web.Request) -> web.Response:
    body = await _json_body(request)
    action = body.get("action")
    if action not in ACTIONS:
        raise BadInput("teacher.action", f"'action' is {action!r}, not one of {', '.join(ACTIONS)}")
    station, minutes = body.get("station"), body.get("minutes", 1)
    console = request.app[CONSOLE]
    seq = await _on_console(request, console.clock_action, action, station, minutes)
    return web.json_response({"seq": seq})


async def start_plan(request: web.Request) -> web.Response:
    body = await _json_body(request)
    plan = Plan.from_json(body.get("plan"))
    stations = body.get("stations") or {}
    if not isinstance(stations, dict):
        raise BadInput("teacher.stations", "say which device is which station")
    session = body.get("session") or ""
    if not isinstance(session, str):
        raise BadInput("teacher.session", "the session must be text")
    swap = body.get("swap") is True  # the clocks go on
    check = body.get("check") is True  # the dashboard asks before its questions about devices
    console = request.app[CONSOLE]
    message = await _on_console(
        request, console.start_plan, plan, stations, session, swap=swap, check=check
    )
    if check:  # the console's every rule passed; nothing started
        return web.json_response({"ok": True})
    return web.json_response({"id": message.id, "session": message.session})


async def clear_plan(request: web.Request) -> web.Response:
    console = request.app[CONSOLE]
    await _on_console(request, console.clear_plan)
    return web.json_response({"ok": True})


async def dismiss(request: web.Request) -> web.Response:
    """Problems the teacher has seen: hidden until they happen again (never deleted)."""
    keys = (await _json_body(request)).get("keys")
    if not isinstance(keys, list):
        raise BadInput("teacher.dismiss", f"'keys' must list problem keys, not {keys!r}")
    console = request.app[CONSOLE]
    await _on_console(request, console.dismiss, keys)
    return web.json_response({"ok": True})


async def latency(request: web.Request) -> web.Response:
    console = request.app[CONSOLE]
    return web.json_response(await _on_console(request, console.latency))


# -- the class list --------------------------------------------------------------------------


def _roster(console: Coordinator) -> dict[str, Any]:
    r = console.roster()
    return {
        "students": [{"id": s.id, "name": s.name, "group": s.group} for s in r.students()],
        "groups": r.groups(),
    }


async def roster(request: web.Request) -> web.Response:
    console = request.app[CONSOLE]
    return web.json_response(await _on_console(request, _roster, console))


ROSTER_OPS = {  # op -> (Roster method, {json key: argument})
    "add": ("add", {"name": "name", "group": "group"}),
    "rename": ("rename", {"id": "sid", "name": "name"}),
    "group": ("set_group", {"id": "sid", "group": "group"}),
    "remove": ("remove", {"id": "sid"}),
}


async def roster_change(request: web.Request) -> web.Response:
    body = await _json_body(request)
    op = body.get("op")
    if not isinstance(op, str) or op not in ROSTER_OPS:
        raise BadInput("teacher.roster", f"unknown change {op!r:.40}")
    method, names = ROSTER_OPS[op]
    kwargs = {arg: body.get(key, "") for key, arg in names.items()}
    if not all(isinstance(v, str) for v in kwargs.values()):
        raise BadInput("teacher.roster", "names, groups and ids must be text")
    console = request.app[CONSOLE]
    student = await _on_console(request, console.roster_change, method, **kwargs)
    return web.json_response({"id": student.id, "name": student.name, "group": student.group})


async def roster_import(request: web.Request) -> web.Response:
    fields: Any = request.query
    if request.content_type.startswith("multipart/"):
        fields = await request.post()
        upload = fields.get("file")
        if not isinstance(upload, web.FileField):
            raise BadInput("teacher.import", "choose a CSV file to import")
        data = upload.file.read()
    else:
        data = await request.read()
    replace = fields.get("replace") in ("1", "on", "true")
    text = decode_csv(data, "the file")
    console = request.app[CONSOLE]
    if fields.get("preview") == "1":  # the dashboard asks before students are removed
        would = await _on_console(request, _import_preview, console, text, replace)
        return web.json_response({"sentence": would.sentence(), "removed": would.removed})
    done = await _on_console(
        request, console.roster_change, "import_csv", text=text, replace=replace
    )
    return web.json_response({"sentence": done.sentence(), "total": done.total})


def _import_preview(console: Coordinator, text: str, replace: bool) -> ImportReport:
    students, _ = read_class_list(text)
    return console.roster().preview(students, replace=replace)


async def roster_csv(request: web.Request) -> web.Response:
    console = request.app[CONSOLE]
    text = await _on_console(request, lambda: console.roster().csv_text())
    return _download("\ufeff" + text, "class-list.csv", "text/csv")


async def badges(request: web.Request) -> web.Response:
    """The class list's badges (``tabletop print badges`` from the list as it is now)."""
    from tabletop.printables.badges import badges_pdf  # fpdf: only when asked for

    console, paper = request.app[CONSOLE], _paper(request)

    def make() -> bytes:
        students = console.roster().students()
        if not students:
            raise BadInput("teacher.badges", "the class list is empty: add students first")
        return bytes(badges_pdf(students, paper).output())

    data = await _on_console(request, make)
    return _download(data, "badges.pdf", "application/pdf")


def _paper(request: web.Request) -> str:
    from tabletop.printables.pdf import PAPERS

    paper = request.query.get("paper", "a4").lower()
    if paper not in PAPERS:
        raise BadInput("teacher.paper", f"the paper must be {' or '.join(PAPERS)}, not {paper!r}")
    return paper


# -- reports ---------------------------------------------------------------------------------


def _left_out(games: list[report_rows.LeftOut]) -> list[dict[str, Any]]:
    return [{"match": g.match, "game": g.game, "sentence": sentence(g.sentence())} for g in games]


def _reports(console: Coordinator) -> list[dict[str, Any]]:
    assert console.journal is not None
    out = []
    for session in report_rows.sessions(console.journal):
        found = report_rows.read_report(console.journal, session)
        rows = found.rows
        out.append(
            {
                "session": session,
                "title": report_rows.session_title(session),
                "students": len({(r.student, r.name) for r in rows}),
                "games": len({p.match for r in rows for p in r.plays}),
                "left_out": _left_out(found.left_out),
                "hidden": _left_out(found.hidden),
            }
        )
    return out


def _results(console: Coordinator, session: str) -> list[dict[str, Any]]:
    """A session's finished games, newest first: what the teacher may hide."""
    assert console.journal is not None
    journal = console.journal
    hidden = report_rows.hidden_matches(journal)
    rows = journal.db.execute(
        "SELECT id, game, label, finished FROM matches WHERE status = 'finished'"
        " AND session = ? ORDER BY id DESC",
        (session,),
    ).fetchall()
    people = {int(r[0]): [s for s in journal.seats(int(r[0])) if s.bot is None] for r in rows}
    # Each game's own names, "Mia (4b)" where another child has hers (students.told_apart).
    apart = told_apart(
        Student(s.student or "", s.name, s.group) for p in people.values() for s in p
    )
    return [
        {
            "match": int(match_id),
            "game": str(game),
            "title": report_rows.game_title(str(game)),
            "station": str(label)[6:] if str(label).startswith("fleet:") else "",
            "finished": finished,
            "players": [
                f"{s.name} ({apart[s.student]})" if s.student in apart else s.name
                for s in people[int(match_id)]
            ],
            "hidden": int(match_id) in hidden,
        }
        for match_id, game, label, finished in rows
    ]


async def results(request: web.Request) -> web.Response:
    console = request.app[CONSOLE]
    session = request.query.get("session", "")
    return web.json_response(await _on_console(request, _results, console, session))


async def hide_result(request: web.Request) -> web.Response:
    """Hide a finished game from the reports, or show it again (journaled, never deleted)."""
    body = await _json_body(request)
    match, hidden = body.get("match"), body.get("hidden", True)
    if type(match) is not int or not 0 <= match < 2**63 or not isinstance(hidden, bool):
        raise BadInput("teacher.hide", "say which game (its number) and whether to hide it")
    console = request.app[CONSOLE]
    assert console.journal is not None
    await _on_console(request, report_rows.hide, console.journal, match, hidden=hidden)
    log.info("teacher: game %d %s", match, "hidden" if hidden else "shown again")
    return web.json_response({"match": match, "hidden": hidden})


async def reports(request: web.Request) -> web.Response:
    console = request.app[CONSOLE]
    return web.json_response(await _on_console(request, _reports, console))


def _session(request: web.Request) -> str | None:
    return request.query.get("session")


async def report_csv(request: web.Request) -> web.Response:
    console, session = request.app[CONSOLE], _session(request)

    def make() -> str:
        assert console.journal is not None
        return report.csv_text(report_rows.gather(console.journal, session))

    text = await _on_console(request, make)
    return _download("\ufeff" + text, f"{report.file_stem(session)}.csv", "text/csv")


async def report_pdf(request: web.Request) -> web.Response:
    console, session, paper = request.app[CONSOLE], _session(request), _paper(request)

    def make() -> bytes:
        assert console.journal is not None
        rows = report_rows.gather(console.journal, session)
        extra = skills.skills_pages(console.journal, session)
        return bytes(class_pdf(rows, session=session, paper=paper, skills=extra).output())

    data = await _on_console(request, make)
    return _download(data, f"{report.file_stem(session)}.pdf", "application/pdf")


def _skills(console: Coordinator, session: str | None) -> dict[str, Any]:
    """The skills view (issue 24): per student and skill, right of checked, the level
    word, the most common mistake with its example, and the trend; and the dice."""
    assert console.journal is not None
    trends = skills.trends(console.journal)
    students = skills.gather_skills(console.journal, session)
    shown = shown_names(Student(r.student, r.name, r.group) for r in students)

    def view(r: skills.SkillRow) -> dict[str, Any]:
        kind = r.common
        return {
            "group": report_rows.group_title(r.group),
            "student": r.student,
            "name": r.name,
            "shown": shown.get(r.student, r.name),  # told apart from a namesake
            "skill": SKILLS.get(r.skill, r.skill),
            "checked": r.checked,
            "right": r.right,
            "level": skills.level(r.checked, r.right),
            "mistake": None if kind is None else KINDS[kind][0],
            "count": 0 if kind is None else r.kinds[kind],
            "example": None if kind is None else r.examples[kind],
            "said": r.mistake(),  # as the PDF report and the skills screen say it
            "trend": skills.row_trend(trends, r),
        }

    dice = fairness(read_dice(console.journal, session))
    return {
        "rows": [view(r) for r in students],
        "groups": [view(t) for t in skills.group_skills(students)],
        "dice": {"counts": list(dice.counts), "sentence": sentence(dice.sentence())},
    }


async def skills_view(request: web.Request) -> web.Response:
    console, session = request.app[CONSOLE], _session(request)
    return web.json_response(await _on_console(request, _skills, console, session))


async def skills_csv(request: web.Request) -> web.Response:
    console, session = request.app[CONSOLE], _session(request)

    def make() -> str:
        assert console.journal is not None
        return skills.skills_csv_text(skills.gather_skills(console.journal, session))

    text = await _on_console(request, make)
    stem = report.file_stem(session).replace("report-", "skills-", 1)
    return _download("\ufeff" + text, f"{stem}.csv", "text/csv")


def _download(body: str | bytes, name: str, kind: str) -> web.Response:
    data = body.encode("utf-8") if isinstance(body, str) else body
    return web.Response(
        body=data,
        content_type=kind,
        charset="utf-8" if isinstance(body, str) else None,
        headers={**HEADERS, "Content-Disposition": f'attachment; filename="{name}"'},
    )


__all__ = ["STATIC", "make_app", "redirect_app"]
