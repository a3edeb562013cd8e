"""`heterodox serve` in a real browser: headless Chromium (Debian's
chromium and chromium-driver, installed by `make test`) plays a short game
of every variant against the random agent by clicking the board, the
reserves and the chooser (a Hostage exchange, a Poison poisoning and cure,
Mad Scientist part operations, a Traitor selection and announcement), and
checks the board and the move list; then the page's other parts: the
shipped networks offered for their rules, check marked, stepping through
earlier positions, resigning and offering a draw, a Traitor opponent's
secret shown only at the end, and Mad Scientist parts drawn alike and
within their squares. Waits are explicit: the page sets `data-busy` on
its body while a request is out, `data-version` to the game's version
once drawn and `data-viewing` to the ply shown while stepping back.

Set HETERODOX_SCREENSHOTS=DIR to keep a screenshot of each game.
"""

import json
import os
import shutil
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

selenium = pytest.importorskip("selenium", reason="selenium is installed by `make setup`")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402
from support import BINARY  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20


def serve(*args):
    """`heterodox serve ARGS` on a free port: the process and its URL."""
    assert BINARY.exists(), f"{BINARY} is built by `make build-rust`"
    process = subprocess.Popen(
        [str(BINARY), "serve", "--port", "0", "--device", "cpu", "--quiet", *args],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    assert line.startswith("heterodox serve: http://"), line
    return process, line.split()[2]


@pytest.fixture(scope="module")
def server():
    process, url = serve("--agent", "random")
    try:
        yield url
    finally:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def browser():
    chromium = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    assert chromium and driver_path, "chromium and chromium-driver are installed by `make setup`"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()


class Page:
    def __init__(self, driver, url):
        self.driver = driver
        self.url = url

    def wait(self, condition, what):
        WebDriverWait(self.driver, WAIT).until(lambda d: condition(), message=what)

    def idle(self):
        body = self.driver.find_element(By.TAG_NAME, "body")
        return body.get_attribute("data-busy") == "0" and body.get_attribute("data-version") != ""

    def status(self):
        return self.driver.find_element(By.ID, "status").text

    def wait_for_my_move(self):
        self.wait(lambda: self.idle() and self.status().startswith("Your move"), "the agent's reply")

    def new_game(self, variant, black="random", fen=None, options=None):
        self.driver.get(self.url)
        self.wait(self.idle, "the first game")
        old = self.driver.execute_script("return location.hash")
        Select(self.driver.find_element(By.ID, "variant")).select_by_value(variant)
        for key, value in (options or {}).items():
            field = self.driver.find_element(By.ID, "option-" + key)
            field.clear()
            field.send_keys(value)
        Select(self.driver.find_element(By.ID, "white")).select_by_value("human")
        Select(self.driver.find_element(By.ID, "black")).select_by_value(black)
        if fen:
            self.driver.find_element(By.ID, "fen").send_keys(fen)
        self.driver.find_element(By.ID, "start").click()
        self.wait(lambda: self.driver.execute_script("return location.hash") != old and self.idle(), "the new game")
        self.wait_for_my_move()

    def api(self, path):
        params = dict(p.split("=") for p in self.driver.execute_script("return location.hash")[1:].split("&"))
        separator = "&" if "?" in path else "?"
        url = f"{self.url}api/games/{params['game']}{path}{separator}token={params['token']}"
        with urllib.request.urlopen(url) as response:
            return json.load(response)

    def notation(self, long):
        """The standard notation of the legal move written `long`."""
        moves = self.api("/legal")["moves"]
        return next(m["notation"] for m in moves if m["long"] == long)

    def click(self, target):
        self.driver.find_element(By.CSS_SELECTOR, f'#board [data-target="{target}"]').click()

    def choose(self, notation):
        buttons = self.driver.find_elements(By.CSS_SELECTOR, "#chooser button.choice")
        assert notation in [b.text for b in buttons], [b.text for b in buttons]
        next(b for b in buttons if b.text == notation).click()

    def play(self, *targets, choice=None):
        """Clicks `targets` (and a chooser button), then waits for the reply."""
        version = self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-version")
        for target in targets:
            self.click(target)
        if choice:
            self.choose(choice)
        self.wait(
            lambda: self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-version") != version,
            f"the move {targets}",
        )
        self.wait_for_my_move()

    def rows(self):
        return [
            [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
            for row in self.driver.find_elements(By.CSS_SELECTOR, "#moves tr.move")
        ]

    def drawn(self, target, marks):
        """The texts of the `marks` (a CSS selector: ``text.count``,
        ``text.countdown``) drawn on `target`: a square, a prison or a hand."""
        found = self.driver.find_elements(By.CSS_SELECTOR, f'#board [data-target="{target}"] {marks}')
        return [mark.text for mark in found]

    def body(self, attribute):
        return self.driver.find_element(By.TAG_NAME, "body").get_attribute(attribute)

    def options(self, select):
        return [o.get_attribute("value") for o in self.driver.find_elements(By.CSS_SELECTOR, f"#{select} option")]

    def notes(self):
        return [t.text for t in self.driver.find_elements(By.CSS_SELECTOR, "#board text.note")]

    def piece(self, square):
        texts = self.driver.find_elements(By.CSS_SELECTOR, f'#board [data-target="{square}"] text.piece')
        return (texts[0].text, texts[0].get_attribute("class")) if texts else None

    def shot(self, name):
        folder = os.environ.get("HETERODOX_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.driver.save_screenshot(str(Path(folder) / f"{name}.png"))


@pytest.fixture()
def page(server, browser):
    return Page(browser, server)


def test_chess_by_clicks_flip_undo_typed_move_and_pgn(page):
    page.new_game("chess")
    page.play("e2", "e4")
    rows = page.rows()
    assert rows[0][:2] == ["1.", "e4"] and rows[0][2], rows
    assert page.piece("e4") == ("\u265f", "piece white")
    # A typed move in the variant's notation.
    version = page.driver.find_element(By.TAG_NAME, "body").get_attribute("data-version")
    page.driver.find_element(By.ID, "move-text").send_keys("Nf3\n")
    page.wait(lambda: page.driver.find_element(By.TAG_NAME, "body").get_attribute("data-version") != version, "Nf3")
    page.wait_for_my_move()
    assert [r[1] for r in page.rows()] == ["e4", "Nf3"]
    page.driver.find_element(By.ID, "flip").click()
    page.wait(
        lambda: page.idle()
        and page.driver.find_element(By.ID, "a1").get_attribute("x") == "335",
        "the flipped board",
    )
    page.driver.find_element(By.ID, "undo").click()
    page.wait(lambda: page.idle() and len(page.rows()) == 1, "the undo")
    assert page.piece("f3") is None and page.piece("g1") == ("\u265e", "piece white")
    href = page.driver.find_element(By.ID, "pgn").get_attribute("href")
    with urllib.request.urlopen(href) as response:
        pgn = response.read().decode()
    assert '[Variant "chess"]' in pgn and "\n1. e4 " in pgn, pgn
    position = page.driver.find_element(By.ID, "position").get_attribute("value")
    assert position.split("/")[4] == "4P3", position
    page.shot("chess")


def test_hostage_exchange_by_clicking_the_prisons(page):
    fen = "r1bq1b1r/ppp3pp/2n1k3/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R[pp/NP/-/-] w KQ - 2 8"
    page.new_game("hostage", fen=fen)
    expected = page.notation("P-P@e3")
    page.play("white-prison-P", "black-prison-P", "e3")
    assert page.rows()[0][1] == expected == "(P-P)*e3"
    assert page.piece("e3") == ("\u265f", "piece white")
    # White's prison held two black pawns and gave one back.
    assert page.drawn("white-prison-P", "text.count") == ["1"]
    page.shot("hostage")


def test_poison_poisoning_and_cure(page):
    fen = "h5k1/5ppp/2nd4/2n5/3H4/8/1B3PPP/5DK1 w - - 0 1 g1:4,d6:2"
    page.new_game("poison", fen=fen)
    poison = page.notation("d4*c5")
    page.play("d4", "c5")
    assert page.rows()[0][1] == poison == "xHd4[c5,5;d6,1]"
    assert page.drawn("c5", "text.countdown") == ["5", "5"]
    cure = page.notation("f1~g1")
    page.play("f1", "g1")
    assert page.rows()[1][1] == cure
    assert page.drawn("g1", "text.countdown") == []
    page.shot("poison")


def test_mad_scientist_part_operations(page):
    page.new_game("madscientist")
    # The Scientist takes a Ferz off the piece on d1: a chooser asks which part.
    page.click("d1")
    page.play(choice="F-d1")
    assert page.rows()[0][1] == "F-d1"
    assert page.drawn("white-hand-F", "text.count") == ["1"]
    # ... and attaches it again from the hand.
    attach = page.notation("F+d1")
    page.play("white-hand-F", "d1")
    assert page.rows()[1][1] == attach
    assert page.driver.find_elements(By.CSS_SELECTOR, '[data-target="white-hand-F"]') == []
    page.shot("madscientist")


def test_traitor_selection_and_announcement(page):
    page.new_game("traitor")
    # The secret selection: two of Black's men, clicked, then confirmed.
    page.click("a8")
    page.click("d7")
    confirm = page.driver.find_element(By.ID, "confirm-selection")
    assert confirm.is_enabled()
    version = page.driver.find_element(By.TAG_NAME, "body").get_attribute("data-version")
    confirm.click()
    page.wait(lambda: page.driver.find_element(By.TAG_NAME, "body").get_attribute("data-version") != version, "the selection")
    page.wait_for_my_move()
    assert page.rows()[0][1:] == ["(S-d7,Ra8)", "(secret)"]
    reply = page.driver.find_element(By.ID, "agent-reply").text
    assert reply.startswith("random (black) made its secret choice"), reply
    page.play("e2", "e4")
    # The announcement: click the traitor, confirm it, then move.
    page.play("a8", choice="(T-Ra8)")
    page.play("d2", "d4")
    assert page.rows()[2][1] == "(T-Ra8)d4", page.rows()
    notes = [t.text for t in page.driver.find_elements(By.CSS_SELECTOR, "#board text.note")]
    assert "secrets: white d7, black hidden" in notes, notes
    assert any(n.startswith("announced a8 (from a8): moved by white") for n in notes), notes
    page.shot("traitor")


def test_shipped_networks_are_offered_for_the_rules_they_play(page):
    page.driver.get(page.url)
    page.wait(page.idle, "the first game")
    variant = Select(page.driver.find_element(By.ID, "variant"))
    variant.select_by_value("hostage")
    assert "zoo:hostage@64/quiescence" in page.options("black"), page.options("black")
    assert "zoo:chess@64" not in page.options("black")
    label = page.driver.find_element(By.CSS_SELECTOR, '#black option[value="zoo:hostage@64/quiescence"]').text
    assert label == ("zoo:hostage@64/quiescence (shipped network, 64 simulations: "
                     "Hostage Chess, one hour on a CPU with the quiescence at the leaves (58.8% against ab@1))")
    # Traitor's networks play Impromptu commitment, not the default.
    variant.select_by_value("traitor")
    assert [o for o in page.options("black") if o.startswith("zoo:")] == []
    for key, value in {"commitment": "impromptu", "mode": "defector"}.items():
        field = page.driver.find_element(By.ID, "option-" + key)
        field.clear()
        field.send_keys(value)
    assert [o for o in page.options("white") if o.startswith("zoo:")] == ["zoo:traitor-defector@64/quiescence"]


def test_the_king_in_check_is_marked(page):
    page.new_game("chess", fen="4k3/8/8/8/8/8/4r3/4K2R w K - 0 1")
    marked = page.driver.find_elements(By.CSS_SELECTOR, "#board .cell.check")
    assert [c.get_attribute("data-target") for c in marked] == ["e1"]
    fill = page.driver.execute_script(
        "return getComputedStyle(document.querySelector('#board .cell.check rect.square')).fill")
    assert fill == "rgb(224, 80, 80)", fill
    page.play("e1", "e2")
    assert page.driver.find_elements(By.CSS_SELECTOR, "#board .cell.check") == []


def test_stepping_through_earlier_positions(page):
    page.new_game("chess")
    page.play("e2", "e4")
    page.play("d2", "d4")
    version = page.body("data-version")
    # Click White's first move: the board after it, moving disabled.
    page.driver.find_element(By.CSS_SELECTOR, '#moves td[data-ply="1"]').click()
    page.wait(lambda: page.idle() and page.body("data-viewing") == "1", "ply 1")
    assert page.piece("e4") == ("\u265f", "piece white") and page.piece("d4") is None
    assert page.driver.find_element(By.ID, "history-text").text.startswith("Viewing the position after white's e4")
    assert page.driver.find_element(By.ID, "move-text").get_attribute("disabled") == "true"
    page.click("d2")
    assert page.driver.find_elements(By.CSS_SELECTOR, "#board .picked, #board .hint") == []
    # The arrow keys step back and forth.
    ActionChains(page.driver).send_keys(Keys.ARROW_LEFT).perform()
    page.wait(lambda: page.idle() and page.body("data-viewing") == "0", "the start")
    assert page.piece("e2") == ("\u265f", "piece white") and page.piece("e4") is None
    ActionChains(page.driver).send_keys(Keys.ARROW_RIGHT).perform()
    page.wait(lambda: page.idle() and page.body("data-viewing") == "1", "ply 1 again")
    page.driver.find_element(By.ID, "live").click()
    page.wait(lambda: page.idle() and page.body("data-viewing") == "", "back to the game")
    assert page.piece("d4") == ("\u265f", "piece white")
    assert page.body("data-version") == version, "looking back changed nothing"
    page.play("g1", "f3")
    assert [r[1] for r in page.rows()] == ["e4", "d4", "Nf3"]


def test_resigning_and_offering_a_draw(page):
    page.new_game("chess")
    page.driver.find_element(By.ID, "draw").click()
    page.wait(lambda: page.idle() and page.driver.find_element(By.ID, "draw-answer").text, "the answer")
    assert page.driver.find_element(By.ID, "draw-answer").text == (
        "Draw offer declined: random has made no move yet to judge the game by")
    page.play("e2", "e4")
    resign = page.driver.find_element(By.ID, "resign")
    resign.click()
    assert resign.text == "Really resign?"
    resign.click()
    page.wait(lambda: page.idle() and page.status().startswith("Game over"), "the resignation")
    assert page.status() == "Game over: 0-1 (resignation)"
    assert "result 0-1: black wins by resignation" in page.notes()
    assert not resign.is_enabled() and not page.driver.find_element(By.ID, "draw").is_enabled()


def test_traitor_opponents_secret_is_shown_only_at_the_end(page):
    page.new_game("traitor")
    page.click("a8")
    page.click("d7")
    version = page.body("data-version")
    page.driver.find_element(By.ID, "confirm-selection").click()
    page.wait(lambda: page.body("data-version") != version, "the selection")
    page.wait_for_my_move()
    secrets = next(n for n in page.notes() if n.startswith("secrets: "))
    assert secrets.startswith("secrets: white ") and secrets.endswith(", black hidden"), secrets
    before = page.driver.page_source
    resign = page.driver.find_element(By.ID, "resign")
    resign.click()
    resign.click()
    page.wait(lambda: page.idle() and page.status().startswith("Game over"), "the resignation")
    shown = next(n for n in page.notes() if n.startswith("secrets: "))
    black = shown.split(", black ")[1]
    assert black != "hidden" and shown.startswith(secrets.split(", black ")[0]), shown
    assert f"black {black}" not in before
    # Black's selection is named in the move list now, and was nowhere before.
    named = page.rows()[0][2]
    assert named.startswith("(S-") and named not in before, page.rows()


def fits(page):
    """The composite pieces (drawn by their letters, in lines) drawn wider
    or taller than their square."""
    return page.driver.execute_script("""
        const out = [];
        for (const cell of document.querySelectorAll('#board .cell')) {
          const text = cell.querySelector('text.piece');
          if (!text || !text.querySelector('tspan')) continue;
          const box = text.getBBox(), sq = cell.querySelector('rect.square').getBBox();
          if (box.x < sq.x || box.y < sq.y || box.x + box.width > sq.x + sq.width
              || box.y + box.height > sq.y + sq.height)
            out.push(cell.dataset.target + ' ' + text.textContent);
        }
        return out;""")


def test_mad_scientist_parts_are_drawn_alike_and_fit_their_squares(page):
    fen = "rn1qk[wff]nr/ppp1pppp/8/3p4/6b1/2N1P3/PPPP1PPP/R1B1KBNR w KQkq - wffcb 0 4"
    page.new_game("madscientist", fen=fen)
    # A Barc in hand is its letter, as on the board; the Bishop its glyph.
    assert page.drawn("black-hand-B", "text.reserve-man") == ["B"]
    assert page.drawn("black-hand-W", "text.reserve-man") == ["W"]
    assert page.piece("g4") == ("\u265d", "piece black")
    assert page.driver.find_element(By.CSS_SELECTOR, '#board [data-target="f8"] text.piece').get_attribute(
        "textContent") == "WFF"
    assert fits(page) == []
    assert page.driver.execute_script("return document.querySelectorAll('#board text.piece tspan').length") == 2
    page.shot("madscientist-parts")
    page.new_game("madscientist", fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB[WWFFCCBB]KBNR w KQkq - - 0 1")
    assert page.driver.find_element(By.CSS_SELECTOR, '#board [data-target="d1"] text.piece').get_attribute(
        "textContent") == "WWFFCCBB"
    assert fits(page) == []


def info(url):
    with urllib.request.urlopen(url + "api/info") as response:
        return json.load(response)


def post(url, body):
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def test_a_busy_server_is_asked_again_when_it_says(browser):
    """With one search allowed and it taken, the page's agent move is told
    503 busy, says so, and asks again after Retry-After until it moves."""
    process, url = serve("--max-searches", "1")
    try:
        # The page is loaded before the server is made busy, so that the one
        # search (5 s) is still running however slowly the browser starts.
        page = Page(browser, url)
        page.new_game("chess", black="ab@100ms")
        error = page.driver.find_element(By.ID, "error")
        version = page.body("data-version")
        game = post(url + "api/games", {"variant": "chess", "black": "ab@5000ms"})
        token = game["tokens"]["white"]
        post(f"{url}api/games/{game['id']}/move", {"token": token, "move": "e4"})
        busy = threading.Thread(target=post, args=(f"{url}api/games/{game['id']}/agent", {"token": token}))
        busy.start()
        deadline = time.monotonic() + WAIT
        while info(url)["searches"] != 1:
            assert time.monotonic() < deadline, "the first search never started"
            time.sleep(0.01)
        page.click("e2")
        page.click("e4")
        page.wait(lambda: error.text.startswith("the server is busy"), "the busy answer")
        assert error.text == ("the server is busy: it runs at most 1 agent searches at once "
                              "(serve --max-searches) and all are running; try again in 1 s")
        busy.join()
        page.wait(lambda: page.body("data-version") != version and page.idle()
                  and page.status().startswith("Your move") and len(page.rows()[0]) == 3
                  and page.rows()[0][2] != "", "the agent's move once the server is free")
        assert error.text == ""
    finally:
        process.kill()
        process.wait()
