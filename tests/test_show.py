"""patience show: the boards after each move (from the independent checker), as text and
as one self-contained HTML page, and that page in a real headless browser.

The won solutions of seed 1 of each game are stored in tests/show_solutions/ (written
once by ``patience solve GAME --seed 1 --shorten quick``), so that these tests replay
them through the checker without loading the solver; one test solves a deal itself.

The browser tests need Chromium and its driver (Debian: ``apt-get install chromium
chromium-driver``) and selenium; without them they skip, unless
PATIENCE_REQUIRE_BROWSER=1 (CI sets it), when they fail.
"""

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from solver import cli

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "tests" / "show_solutions"
GAMES = {  # game -> cards in it
    "bakers-dozen": 52, "grand-duchess": 104, "parisienne": 104, "duchess": 52, "capricieuse": 104,
    "russian-patience": 104,
}
FULL = {  # the foundations line of a won board
    "bakers-dozen": "F: KC KD KH KS",
    "grand-duchess": "U: KC KD KH KS  D: AC AD AH AS",
    "parisienne": "U: KC KD KH KS  D: AC AD AH AS",
    "capricieuse": "U: KC KD KH KS  D: AC AD AH AS",
    "russian-patience": "U: KC KD KH KS  D: AC AD AH AS",
}


def run(capsys, *argv):
    rc = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def solution(game):
    return SOLUTIONS / f"{game}-1.txt"


def moves_of(game):
    return [ln for ln in solution(game).read_text().splitlines() if ln.strip() and not ln.startswith("#")]


def blocks(text):
    """The text form's blocks: heading -> lines."""
    out = {}
    for chunk in text.split("\n== ")[1:]:
        head, _, body = chunk.partition(" ==\n")
        out[head] = body.split("\n\n")[0].splitlines()  # up to the blank line that ends a block
    return out


# ------------------------------------------------------------------ text


@pytest.mark.parametrize("game", GAMES)
def test_text_steps_through_a_won_solution(capsys, game):
    moves = moves_of(game)
    rc, out, err = run(capsys, "show", game, "--seed", 1, "--solution", solution(game), "--text")
    assert rc == 0, err
    b = blocks(out)
    heads = list(b)
    assert heads[0] == "start"
    assert len(heads) == len(moves) + 1
    assert heads[1] == f"move 1/{len(moves)}: {moves[0]}"
    assert heads[-1] == f"move {len(moves)}/{len(moves)}: {moves[-1]}"
    total = GAMES[game]
    final = b[heads[-1]]
    assert final[0].startswith(f"home {total}/{total}")
    if game in FULL:
        assert FULL[game] in final
    else:  # Duchess: each foundation ends one rank below its base, wrapping
        base = re.search(r"base rank (\w)", final[0]).group(1)
        below = "KA23456789TJQ"["A23456789TJQK".index(base)]
        assert f"F: {below}C {below}D {below}H {below}S" in final
    assert out.rstrip().endswith(f"won in {len(moves)} moves: all {total} cards home")
    # every pile line after the foundations is empty at the end
    assert all(line.split()[-1] in ("--", "empty") for line in final[2:])


def test_text_marks_face_down_cards(capsys, tmp_path):
    # Grand Duchess: the reserve is face down until the stock is out
    rc, out, _ = run(capsys, "show", "grand-duchess", "--seed", 1, "--solution", solution("grand-duchess"), "--text")
    assert rc == 0
    start = blocks(out)["start"]
    assert "reserve face down" in start[0]
    assert any(re.fullmatch(r"R +\[\w\w \w\w\]", line) for line in start)
    # Baker's Dozen face_down=true: all but the top card of each column
    rc, out, _ = run(capsys, "show", "bakers-dozen", "face_down=true", "--seed", 1,
                     "--solution", solution("bakers-dozen"), "--text")
    assert rc == 0
    b = blocks(out)
    assert re.fullmatch(r"c1 +\[\w\w \w\w \w\w\] \w\w", b["start"][2])
    assert "home 52/52" in b[list(b)[-1]][0]


def test_text_of_a_solution_that_does_not_win(capsys, tmp_path):
    sol = tmp_path / "part.txt"
    sol.write_text("\n".join(moves_of("bakers-dozen")[:5]) + "\n")
    rc, out, err = run(capsys, "show", "bakers-dozen", "--seed", 1, "--solution", sol, "--text")
    assert rc == 0, err
    assert len(blocks(out)) == 6
    assert "5 legal moves, not won" in out


def test_an_illegal_move_is_one_line_and_exit_2(capsys, tmp_path):
    moves = moves_of("bakers-dozen")
    sol = tmp_path / "bad.txt"
    sol.write_text("\n".join(moves[:3] + ["c1 F KS"] + moves[3:]) + "\n")
    for extra in ([], ["--text"]):
        rc, out, err = run(capsys, "show", "bakers-dozen", "--seed", 1, "--solution", sol, "--out",
                           tmp_path / "bad.html", *extra)
        assert rc == 2
        assert out == ""
        assert err.count("\n") == 1 and err.startswith("patience: error: ")
        assert "move 4 'c1 F KS' is illegal" in err
        assert not (tmp_path / "bad.html").exists()


@pytest.mark.parametrize("argv, words", [
    (["show", "bakers-dozen", "--seed", 1, "--solution", "no-such.sol"], "does not exist"),
    (["show", "no-such-game", "--seed", 1], "unknown game"),
    (["show", "bakers-dozen"], "required"),
    (["show", "bakers-dozen", "--seed", 1, "colour=red"], "unknown variant"),
])
def test_bad_input_is_one_line(capsys, argv, words):
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert err.count("\n") == 1 and words in err


def test_out_must_not_be_a_folder(capsys, tmp_path):
    rc, _, err = run(capsys, "show", "bakers-dozen", "--seed", 1, "--solution", solution("bakers-dozen"),
                     "--out", tmp_path)
    assert rc == 2 and "folder" in err and err.count("\n") == 1


def test_show_solves_the_deal_itself(capsys):
    # no --solution: solved as `patience solve` would (seed 1 solves in milliseconds)
    rc, out, err = run(capsys, "show", "bakers-dozen", "--seed", 1, "--text", "--shorten", "quick")
    assert rc == 0, err
    assert out.splitlines()[1].startswith("# won in ")
    assert "home 52/52" in out


# ------------------------------------------------------------------ the page


def page(capsys, tmp_path, game="bakers-dozen", *extra):
    out_file = tmp_path / f"{game}.html"
    rc, out, err = run(capsys, "show", game, "--seed", 1, "--solution", solution(game), "--out", out_file, *extra)
    assert rc == 0, err
    assert out.startswith(f"wrote {out_file}")
    return out_file


def page_data(html):
    m = re.search(r"var DATA = (\{.*?\});\n", html)
    return json.loads(m.group(1))


@pytest.mark.parametrize("game", GAMES)
def test_page_is_self_contained(capsys, tmp_path, game):
    html = page(capsys, tmp_path, game).read_text(encoding="utf-8")
    low = html.lower()
    assert "http://" not in low and "https://" not in low and "//cdn" not in low
    assert not re.search(r"<(script|img|iframe|link)[^>]*\s(src|href)\s*=\s*['\"](?!data:)", low)
    assert "@import" not in low and "url(" not in low
    data = page_data(html)
    assert data["moves"] == moves_of(game)
    assert len(data["boards"]) == len(data["moves"]) + 1
    assert data["home"][-1] == data["total"] == GAMES[game]
    assert data["won"] is True


def test_page_default_name(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, err = run(capsys, "show", "bakers-dozen", "face_down=true", "--seed", 1,
                       "--solution", solution("bakers-dozen"))
    assert rc == 0, err
    name = "bakers-dozen-face_down=true-1.html"
    assert (tmp_path / name).is_file()
    assert out.startswith(f"wrote {name} ")


def test_page_text_cannot_close_the_script(capsys, tmp_path):
    # a title (here a deck file's name) with "</script>" must not end the data early
    from solver.cards import deck_str
    from solver.deals import seeded_deck

    (tmp_path / "x<").mkdir()
    deck = tmp_path / "x<" / "script><b>.txt"  # the path reads .../x</script><b>.txt
    deck.write_text(deck_str(seeded_deck(1)))
    out_file = tmp_path / "p.html"
    rc, _, err = run(capsys, "show", "bakers-dozen", "--deck", deck, "--solution", solution("bakers-dozen"),
                     "--out", out_file)
    assert rc == 0, err
    html = out_file.read_text()
    assert html.count("</script>") == 1
    assert "</script><b>" in page_data(html)["title"]


# ------------------------------------------------------------------ a real browser

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def _browser_missing():
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(path):
            return f"{path} is missing (Debian: apt-get install chromium chromium-driver)"
    return None


@pytest.fixture(scope="module")
def browser():
    why = _browser_missing()
    if why:
        if os.environ.get("PATIENCE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"PATIENCE_REQUIRE_BROWSER=1 but no headless browser: {why}")
        pytest.skip(f"no headless browser: {why}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="patience-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1400,900"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # the driver given explicitly: selenium never looks for (or downloads) one
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def text_of(driver, element_id):
    return driver.find_element("id", element_id).text


def console_errors(driver):
    return [e for e in driver.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]


@pytest.mark.parametrize("game", ["bakers-dozen", "grand-duchess"])
def test_page_in_a_browser(capsys, tmp_path, browser, game):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    out_file = page(capsys, tmp_path, game)
    n, total = len(moves_of(game)), GAMES[game]
    browser.get(out_file.as_uri())
    assert browser.execute_script("return document.readyState") == "complete"
    assert console_errors(browser) == []
    assert text_of(browser, "move-number") == "0"
    assert text_of(browser, "foundation-total") == "0"
    assert text_of(browser, "move-count") == str(n)
    if game == "bakers-dozen":  # every card is drawn (nothing in a stock)
        assert len(browser.find_elements(By.CSS_SELECTOR, "#board .card")) == total
    body = browser.find_element(By.TAG_NAME, "body")

    body.send_keys(Keys.END)  # to the end: every card home
    assert text_of(browser, "move-number") == str(n)
    assert text_of(browser, "foundation-total") == str(total)
    assert browser.execute_script("return window.viewer.state()")["home"] == total
    body.send_keys(Keys.ARROW_LEFT)
    assert text_of(browser, "move-number") == str(n - 1)
    assert text_of(browser, "move-text") == moves_of(game)[n - 2]
    body.send_keys(Keys.ARROW_RIGHT)
    assert text_of(browser, "move-number") == str(n)
    body.send_keys(Keys.HOME)
    assert text_of(browser, "move-number") == "0"
    browser.find_element(By.ID, "next").click()
    assert text_of(browser, "move-number") == "1"
    assert text_of(browser, "move-text") == moves_of(game)[0]
    browser.find_element(By.ID, "last").click()
    assert text_of(browser, "foundation-total") == str(total)
    assert "#move=" + str(n) in browser.current_url

    # nothing was fetched: the page is all there is
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert console_errors(browser) == []


def test_page_opens_at_the_move_in_its_address(capsys, tmp_path, browser):
    out_file = page(capsys, tmp_path, "parisienne")
    browser.get(out_file.as_uri() + "#move=40")
    assert text_of(browser, "move-number") == "40"
    state = browser.execute_script("return window.viewer.state()")
    assert state["move"] == 40 and state["text"] == moves_of("parisienne")[39]
    browser.execute_script("window.viewer.step(-5)")
    assert text_of(browser, "move-number") == "35"
    assert console_errors(browser) == []
