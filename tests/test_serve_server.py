"""`toppi serve` holds: a bounded queue per client with a one-line "busy" answer, quick
questions never behind long ones, ended jobs that keep no body, the Origin and Host
checks, `--host` open to the network said so, bad bodies 400 with one line on every
POST endpoint, and a server with a full queue that stops on SIGTERM. (The figures:
`python scripts/bench_serve.py --server`.)"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from solver.serve import jobs
from solver.serve.app import create_app, is_loopback, served_hosts
from solver.serve.command import announce
from tests.cli_helpers import assert_one_line_error, game_runner

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
JSON = {"Content-Type": "application/json"}
HIPPO = (PUZZLES / "hippo/midgame-4p.json").read_text()
# a solve that runs to the web's longest limit (60 s) whatever the load: holds a slot
LONG = "/api/take-it-higher/max?variant=advanced&gold-silver=1&backend=cpsat&time-limit=60"
GUARD = 120  # seconds a test waits for what must come: a guard against a hang only


def as_client(app):
    """The app, the request's client address taken from an `X-Test-Client` header
    (TestClient's requests all come from one made-up address)."""
    async def wrapped(scope, receive, send):
        if scope["type"] == "http":
            who = dict(scope["headers"]).get(b"x-test-client")
            if who:
                scope = {**scope, "client": (who.decode(), 1)}
        await app(scope, receive, send)
    return wrapped


@pytest.fixture(scope="module")
def server():
    """(TestClient, app): a pool of 2 slots and the quick one."""
    app = create_app(pool_size=2)
    with TestClient(as_client(app)) as c:
        yield c, app


def ask(client, path: str, body: str | bytes = "{}", who: str = "a", **headers):
    data = body.encode() if isinstance(body, str) else body
    return client.post(path, content=data, headers={**JSON, "X-Test-Client": who,
                                                    **headers})


def status(client, job: str) -> str:
    return client.get(f"/api/jobs/{job}").json()["status"]


def wait_for(what, guard: float = GUARD):
    deadline = time.monotonic() + guard
    while not (found := what()):
        assert time.monotonic() < deadline, "waited past the guard"
        time.sleep(0.05)
    return found


def cancel_all(client, ids) -> None:
    for job in ids:
        client.delete(f"/api/jobs/{job}")


# ---------------------------------------------------------------- the queue

def test_the_queue_is_bounded_per_client_and_in_all(server, monkeypatch):
    client, app = server
    monkeypatch.setattr(jobs, "MAX_PER_CLIENT", 3)
    monkeypatch.setattr(jobs, "MAX_QUEUED", 5)
    ids = []
    try:
        for _ in range(3):
            r = ask(client, LONG + "&async=1", who="a")
            assert r.status_code == 202, r.text
            ids.append(r.json()["job"])
        for path in (LONG + "&async=1", LONG, "/api/hippo/best?roll=6,4,2"):
            r = ask(client, path, HIPPO, who="a")
            assert r.status_code == 429
            assert r.json() == {"error": "toppi: error: busy: 3 questions are waiting; "
                                         "cancel one or wait"}
        # quick verbs on threads are never refused
        assert ask(client, "/api/hippo/show", HIPPO, who="a").status_code == 200
        for _ in range(2):
            r = ask(client, LONG + "&async=1", who="b")
            assert r.status_code == 202, r.text
            ids.append(r.json()["job"])
        r = ask(client, LONG + "&async=1", who="c")
        assert r.status_code == 429
        assert r.json()["error"] == ("toppi: error: busy: the server has 5 questions "
                                     "waiting; try again in a while")
        client.delete(f"/api/jobs/{ids.pop(0)}")
        r = ask(client, LONG + "&async=1", who="c")
        assert r.status_code == 202, r.text
        ids.append(r.json()["job"])
    finally:
        cancel_all(client, ids)
    assert app.state.pool.active() == 0


def test_a_quick_question_does_not_wait_behind_long_ones(server, monkeypatch):
    """Both slots solve for 60 s and 12 more long solves wait: a quick question (the
    page's limit) is answered while they all still run or wait."""
    client, app = server
    monkeypatch.setattr(jobs, "MAX_PER_CLIENT", 20)
    ids = [ask(client, LONG + "&async=1").json()["job"] for _ in range(14)]
    try:
        wait_for(lambda: [status(client, j) for j in ids[:2]] == ["running"] * 2)
        assert [status(client, j) for j in ids[2:]] == ["queued"] * 12
        r = ask(client, "/api/hippo/best?roll=6,4,2&async=1", HIPPO)
        assert r.status_code == 202, r.text
        quick = r.json()["job"]
        done = wait_for(lambda: (s := client.get(f"/api/jobs/{quick}").json())["status"]
                        not in ("queued", "running") and s)
        assert done["status"] == "done" and done["http_status"] == 200, done
        assert [status(client, j) for j in ids] == ["running"] * 2 + ["queued"] * 12
        # a long question is no quick one: it waits
        r = ask(client, "/api/hippo/best?roll=6,4,2&async=1&time-limit=30", HIPPO)
        ids.append(r.json()["job"])
        time.sleep(0.5)
        assert status(client, ids[-1]) == "queued"
    finally:
        cancel_all(client, ids)


def test_ended_jobs_keep_no_body_and_the_table_shrinks(server, monkeypatch):
    client, app = server
    pool = app.state.pool
    monkeypatch.setattr(jobs, "MAX_JOBS_KEPT", 3)
    # a done job keeps its answer, not its question
    r = ask(client, "/api/hippo/best?roll=6,4,2&async=1", HIPPO)
    answered = r.json()["job"]
    wait_for(lambda: status(client, answered) == "done")
    assert pool.jobs[answered].request is None
    result = client.get(f"/api/jobs/{answered}").json()["result"]
    assert result["roll"] == [6, 4, 2] and result["player"] == "red"
    held = [ask(client, LONG + "&async=1").json()["job"] for _ in range(2)]
    big = json.dumps({**json.loads(HIPPO), "pad": "x" * 100_000})
    waiting = [ask(client, "/api/hippo/best?roll=6,4,2&async=1&time-limit=30", big
                   ).json()["job"] for _ in range(5)]
    try:
        assert [status(client, j) for j in waiting] == ["queued"] * 5
        assert all(len(pool.jobs[j].request.text) == len(big) for j in waiting)
    finally:
        cancel_all(client, held + waiting)
    kept = [j for j in [answered, *held, *waiting] if j in pool.jobs]
    assert len(kept) == 3 and pool.active() == 0
    assert all(pool.jobs[j].request is None for j in kept)
    assert [client.get(f"/api/jobs/{j}").status_code for j in waiting[-3:]] == [200] * 3
    assert client.get(f"/api/jobs/{answered}").status_code == 404


# ---------------------------------------------------------------- bad bodies

BAD_BODIES = {
    "lone surrogate": rb'{"game": "\ud800"}',
    "lone surrogate key": rb'{"\uDFFF": 1}',
    "lone surrogate deep": rb'{"position": {"game": "hippo", "players": ["\udbff"]}, '
                           rb'"tool": null, "clicks": [["lane", "1"]], "steps": ["\ud800"]}',
    "5,000 digits": b'{"game": ' + b"9" * 5000 + b"}",
    "deep": b"[" * 5000 + b"]" * 5000,
    "list": b"[1, 2]",
    "string": b'"hippo"',
    "null": b"null",
    "number": b"1e999",
    "NaN": b'{"game": NaN}',
    "bad UTF-8": b'{"game": "\xff"}',
    "empty": b"",
}


def test_bad_bodies_are_400_with_one_line_everywhere(server):
    client, _ = server
    puzzle = client.get("/api/hippo/library").json()["puzzles"][0]["name"]
    endpoints = [f"/api/{g}/show" for g in ("take-it-higher", "hoch-hinaus",
                                            "tippi-toppi", "topito", "hippo")]
    endpoints += ["/api/hippo/best?roll=6,4,2", "/api/hippo/apply?move=1",
                  "/api/hippo/picture", "/api/hippo/palette", "/api/hippo/edit",
                  f"/api/hippo/library/{puzzle}/check", f"/api/hippo/library/{puzzle}/steps"]
    for endpoint in endpoints:
        for name, body in BAD_BODIES.items():
            r = ask(client, endpoint, body)
            assert r.status_code == 400, (endpoint, name, r.text)
            line = r.json()["error"]
            assert line.startswith("toppi: error: ") and "\n" not in line, line
            if name.startswith("lone"):
                assert "a lone surrogate escape \\u" in line, (endpoint, line)


def test_the_cli_says_the_lone_surrogate_in_one_line(tmp_path):
    path = tmp_path / "position.json"
    path.write_bytes(BAD_BODIES["lone surrogate"])
    result = game_runner("hippo")("show", str(path))
    assert_one_line_error(result, f"position file {path}: a lone surrogate escape "
                                  "\\ud800", "at line 1 column 11")
    path.write_bytes(rb'{"game": "\ud83d\ude00 and \\ud800"}')  # a pair, and no escape
    assert_one_line_error(game_runner("hippo")("show", str(path)), "not a hippo position")


# ---------------------------------------------------------------- Origin and Host

def test_a_foreign_origin_cannot_change_anything(server):
    client, _ = server
    puzzle = client.get("/api/hippo/library").json()["puzzles"][0]["name"]
    changes = [("/api/hippo/show", HIPPO), ("/api/hippo/best?roll=6,4,2", HIPPO),
               ("/api/hippo/apply?move=1", HIPPO), ("/api/hippo/picture", HIPPO),
               ("/api/hippo/palette", HIPPO), ("/api/hippo/edit", "{}"),
               (f"/api/hippo/library/{puzzle}/check", '{"steps": []}'),
               (f"/api/hippo/library/{puzzle}/steps", '{"steps": []}'),
               (LONG + "&async=1", "{}")]
    for origin in ("http://evil.example", "null", "http://testserver:8080",
                   "https://testserver", "http://127.0.0.1"):
        for path, body in changes:
            r = ask(client, path, body, Origin=origin)
            assert r.status_code == 403, (path, origin, r.text)
            assert r.json() == {"error": f"toppi: error: a page of another site "
                                         f"({origin}) may not ask this server"}
    r = ask(client, LONG + "&async=1")
    job = r.json()["job"]
    try:
        gone = client.delete(f"/api/jobs/{job}", headers={"Origin": "http://evil.example"})
        assert gone.status_code == 403 and status(client, job) != "cancelled"
        # reading is not changing; the page's own origin and no origin are answered
        assert client.get("/api/hippo/library",
                          headers={"Origin": "http://evil.example"}).status_code == 200
        assert ask(client, "/api/hippo/show", HIPPO,
                   Origin="http://testserver").status_code == 200
        assert ask(client, "/api/hippo/show", HIPPO,
                   Origin="HTTP://TestServer:80").status_code == 200
    finally:
        assert client.delete(f"/api/jobs/{job}").json()["status"] == "cancelled"


def test_only_the_host_names_served_are_answered():
    assert is_loopback("127.0.0.2") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    for host, allow in (("127.0.0.1", ()), ("127.0.0.2", ()), ("0.0.0.0", ()),
                        ("::", ()), ("192.168.1.5", ("table.lan",))):
        hosts = served_hosts(host, allow)
        app = create_app(host=host, allow_hosts=allow)
        client = TestClient(app, base_url="http://127.0.0.1:8765")  # no pool: pages only
        for name in hosts:
            header = f"{name}:8765"
            r = client.get("/", headers={"Host": header})
            assert r.status_code == 200, (host, header)
        for name in ("evil.example", "127.0.0.1.evil.example", "10.0.0.1", ""):
            r = client.get("/", headers={"Host": name})
            assert r.status_code == 400, (host, name)
            assert "\n" not in r.json()["error"] and "is not served here" in r.json()["error"]
        assert {"127.0.0.1", "localhost", "[::1]"} <= set(hosts)
        assert set(allow) <= set(hosts)
    import socket

    assert socket.gethostname().lower() in served_hosts("0.0.0.0")
    assert socket.gethostname().lower() not in served_hosts("127.0.0.1")
    assert "127.0.0.2" in served_hosts("127.0.0.2")
    assert "[::1]" in served_hosts("::1") and "192.168.1.5" in served_hosts("192.168.1.5")


def test_the_url_printed_works_and_the_network_is_warned_of():
    url, lines = announce("::1", 8765, served_hosts("::1"))
    assert (url, lines) == ("http://[::1]:8765/", ["toppi serve: http://[::1]:8765/"])
    url, lines = announce("127.0.0.2", 8765, served_hosts("127.0.0.2"))
    assert (url, lines) == ("http://127.0.0.2:8765/", ["toppi serve: http://127.0.0.2:8765/"])
    for host, here in (("0.0.0.0", "127.0.0.1"), ("::", "[::1]"),
                       ("192.168.1.5", "192.168.1.5"), ("fd00::5", "[fd00::5]")):
        url, lines = announce(host, 8765, served_hosts(host))
        assert url == f"http://{here}:8765/"
        assert lines[0].startswith("toppi serve: warning: listening on ")
        assert "open to the network; anyone who can reach this machine can use it" \
            in lines[0]
        assert lines[1].startswith(f"toppi serve: {url}")
        assert "answering the host names" in lines[2]


def test_serve_refuses_in_one_line_what_it_cannot_do():
    import socket

    run = game_runner("")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert_one_line_error(run("serve", "--port", str(port)),
                              f"--host 127.0.0.1 --port {port}: cannot listen there")
    for name in ("*", "host:8765", "http://host", ""):
        assert_one_line_error(run("serve", "--allow-host", name), f"--allow-host '{name}'",
                              "the Host check stays on")


# ---------------------------------------------------------------- a real server

TOPPI = [sys.executable, "-c",
         f"import sys; sys.path.insert(0, {str(ROOT)!r}); from solver.cli import main; main()"]


def start_server(*args: str) -> tuple[subprocess.Popen, list[str]]:
    """`toppi serve --port 0 ARGS` and its first lines on stderr (up to the URL)."""
    proc = subprocess.Popen([*TOPPI, "serve", "--port", "0", "--workers", "1", *args],
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    lines: list[str] = []
    deadline = time.monotonic() + GUARD
    while not any(line.startswith("toppi serve: http") for line in lines):
        assert time.monotonic() < deadline and proc.poll() is None, lines
        lines.append(proc.stderr.readline().rstrip("\n"))
    return proc, lines


def request(url: str, method: str = "GET", body: bytes | None = None,
            **headers: str) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=body, method=method,
                                 headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(req, timeout=GUARD) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def workers_of(pid: int) -> list[int]:
    """The pool's worker processes of a server (spawned by multiprocessing)."""
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                out.append(int(child))
    return out


def test_open_to_the_network_keeps_the_host_check():
    import socket

    proc, lines = start_server("--host", "0.0.0.0")
    try:
        assert lines[0].startswith("toppi serve: warning: listening on 0.0.0.0")
        url = lines[1].split()[2]
        assert url.startswith("http://127.0.0.1:")
        port = url.rsplit(":", 1)[1].strip("/")
        assert request(url + "api")[0] == 200
        assert request(url + "api", Host=f"{socket.gethostname()}:{port}")[0] == 200
        code, answer = request(url + "api", Host=f"evil.example:{port}")
        assert code == 400 and "is not served here" in answer["error"]
        code, answer = request(url + "api/hippo/show", "POST", HIPPO.encode(),
                               Origin="http://evil.example")
        assert code == 403
    finally:
        proc.terminate()
        proc.wait(GUARD)


def test_a_full_queue_stops_on_sigterm():
    """8 long solves (the most one client may have; a 9th is busy), two of them asked
    waiting for their answer: SIGTERM ends the server, its questions answered and its
    workers gone. (How fast: scripts/bench_serve.py --server.)"""
    proc, lines = start_server()
    url = lines[-1].split()[2].rstrip("/")
    answers: list[tuple[int, dict]] = []
    try:
        ids = [request(url + LONG + "&async=1", "POST", b"{}")[1]["job"] for _ in range(6)]
        assert ids == [f"j{n}" for n in range(1, 7)]
        waiting = [threading.Thread(target=lambda: answers.append(
            request(url + LONG, "POST", b"{}"))) for _ in range(2)]
        for thread in waiting:
            thread.start()
        wait_for(lambda: all(request(f"{url}/api/jobs/j{n}")[0] == 200 for n in (7, 8)))
        code, busy = request(url + LONG + "&async=1", "POST", b"{}")
        assert (code, busy["error"]) == (429, "toppi: error: busy: 8 questions are "
                                              "waiting; cancel one or wait")
        wait_for(lambda: request(f"{url}/api/jobs/j1")[1]["status"] == "running")
        workers = workers_of(proc.pid)
        assert len(workers) == 2  # the slot and the quick slot
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)  # a guard against a hang, not a timing
        for thread in waiting:
            thread.join(GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode in (0, -signal.SIGTERM)
    assert sorted(code for code, _ in answers) == [409, 409]
    assert {a["error"] for _, a in answers} == {
        "toppi: error: cancelled: the server is stopping"}
    assert not [pid for pid in workers if alive(pid)]
