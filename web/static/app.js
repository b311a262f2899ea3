/* Sequence companion: the table's page. Plain JS, no framework, no CDN.
 *
 * State comes from GET /api/state and then live from Server-Sent Events (/api/events).
 * Writes (setup, corrections) send the table PIN in the X-Table-PIN header.
 */
"use strict";

const SYMBOL_COLOR = { B: "blue", G: "green", R: "red" };
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const LANG_KEY = "companion.lang";
const PIN_KEY = "companion.pin";
const COLUMNS = "ABCDEFGHIJ";

const app = {
  catalog: { ui: {}, codes: {}, rules: {} },
  state: null,
  rulingKeys: new Set(),
  layout: null,
  view: "game",
  marks: [], // corners tapped on the calibration picture, in its own pixels
};

/* Figures the browser tests read: when each ruling reached the screen (epoch seconds). */
window.companionMetrics = { rulingShownAt: {}, rulingShownAtByContent: {}, stateRenders: 0, eventsReceived: 0, toasts: [] };

// ------------------------------------------------------------------ small helpers

function $(id) { return document.getElementById(id); }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function t(key, vars) {
  let text = app.catalog.ui[key];
  if (text === undefined) text = key;
  for (const [name, value] of Object.entries(vars || {})) {
    text = text.split("{" + name + "}").join(String(value));
  }
  return text;
}

function colorName(color) { return color ? t("color." + color) : "–"; }

function cardLabel(card) {
  if (!card) return "";
  const suit = card.slice(-1);
  return card.slice(0, -1).replace("T", "10") + (SUIT_SYMBOL[suit] || suit);
}

function cardClass(card) {
  const suit = (card || "").slice(-1);
  return suit === "H" || suit === "D" ? "card red-suit" : "card";
}

function cellName(row, col) { return COLUMNS[col] + (row + 1); }

function toast(message, kind) {
  const box = $("toast");
  box.textContent = message;
  box.className = "toast " + (kind || "info");
  // every message shown, newest last (tests read it: a message may be replaced within ms)
  const shown = window.companionMetrics.toasts;
  shown.push(message);
  if (shown.length > 50) shown.shift();
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

// ------------------------------------------------------------------ translations

/* The page arrives with its language's texts embedded (no flash of English); other languages
 * are fetched when a viewer switches. */
function embeddedCatalog() {
  const node = document.getElementById("i18n-catalog");
  try { return node ? JSON.parse(node.textContent) : null; } catch (e) { return null; }
}

async function loadLanguage(lang) {
  const embedded = embeddedCatalog();
  if (embedded && embedded.lang === lang) {
    app.catalog = embedded;
  } else {
    const response = await fetch("/api/i18n/" + encodeURIComponent(lang));
    if (!response.ok) throw new Error("no translations for " + lang);
    app.catalog = await response.json();
  }
  document.documentElement.lang = app.catalog.lang;
  document.documentElement.dataset.lang = app.catalog.lang;
  $("lang").value = app.catalog.lang;
  try { localStorage.setItem(LANG_KEY, app.catalog.lang); } catch (e) { /* private mode */ }
  document.cookie = "lang=" + app.catalog.lang + ";path=/;max-age=31536000;samesite=lax";
  applyTranslations();
  if (app.state) renderState(app.state);
  if (app.view === "dispute") renderDispute();
}

function applyTranslations() {
  for (const node of document.querySelectorAll("[data-i18n]")) {
    const text = app.catalog.ui[node.dataset.i18n];
    if (text !== undefined) node.textContent = text;
  }
  for (const node of document.querySelectorAll("[data-i18n-placeholder]")) {
    const text = app.catalog.ui[node.dataset.i18nPlaceholder];
    if (text !== undefined) node.placeholder = text;
  }
  for (const node of document.querySelectorAll("[data-i18n-title]")) {
    const text = app.catalog.ui[node.dataset.i18nTitle];
    if (text !== undefined) node.title = text;
  }
  document.title = t("title");
  renderSetupProblems();
}

function preferredLanguage() {
  const supported = Array.from($("lang").options).map((o) => o.value);
  let stored = null;
  try { stored = localStorage.getItem(LANG_KEY); } catch (e) { /* private mode */ }
  const candidates = [stored, ...(navigator.languages || [navigator.language || ""])];
  for (const candidate of candidates) {
    const code = (candidate || "").slice(0, 2).toLowerCase();
    if (supported.includes(code)) return code;
  }
  return "en";
}

function codeText(ruling) {
  return app.catalog.codes[ruling.code] || ruling.message || ruling.code;
}

function ruleText(ruleId) { return app.catalog.rules[ruleId] || ""; }

// ------------------------------------------------------------------ PIN and writes

function storedPin() {
  try { return sessionStorage.getItem(PIN_KEY) || ""; } catch (e) { return ""; }
}

function storePin(pin) {
  try {
    if (pin) sessionStorage.setItem(PIN_KEY, pin); else sessionStorage.removeItem(PIN_KEY);
  } catch (e) { /* private mode */ }
  $("pin-button").classList.toggle("unlocked", Boolean(pin));
  $("pin-button").textContent = pin ? t("pin.unlocked") : t("pin.button");
}

function askPin() {
  return new Promise((resolve) => {
    const dialog = $("pin-dialog");
    const input = $("pin-input");
    $("pin-error").hidden = true;
    input.value = "";
    const done = (pin) => {
      dialog.removeEventListener("close", onClose);
      resolve(pin);
    };
    const onClose = () => done(dialog.returnValue === "ok" ? input.value.trim() : "");
    dialog.addEventListener("close", onClose);
    dialog.showModal();
    input.focus();
  });
}

async function unlock() {
  const pin = await askPin();
  if (!pin) return "";
  const response = await fetch("/api/pin", { method: "POST", headers: { "X-Table-PIN": pin } });
  if (response.ok) {
    storePin(pin);
    toast(t("pin.accepted"), "ok");
    return pin;
  }
  storePin("");
  toast(await errorMessage(response), "error");
  return "";
}

async function errorMessage(response) {
  try {
    const body = await response.json();
    if (body && body.error) {
      const known = app.catalog.ui["error." + body.error.code];
      return known || body.error.message;
    }
  } catch (e) { /* not JSON */ }
  return t("error.http", { status: response.status });
}

/* POST JSON with the PIN; asks for the PIN first when none is stored. Returns the body or null. */
async function post(path, body) {
  let pin = storedPin();
  if (!pin) pin = await unlock();
  if (!pin) return null;
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Table-PIN": pin },
    body: JSON.stringify(body || {}),
  });
  if (response.status === 403 || response.status === 401) storePin("");
  if (!response.ok) {
    toast(await errorMessage(response), "error");
    return null;
  }
  const result = await response.json();
  if (result.state) renderState(result.state);
  return result;
}

// ------------------------------------------------------------------ rendering the state

function renderState(state) {
  app.state = state;
  window.companionMetrics.stateRenders += 1;
  renderStatus(state);
  renderTurn(state);
  renderBoard(state);
  renderRulings(state.rulings || [], state.moves || []);
  renderDeadCards(state.dead_cards || []);
  renderWinner(state);
  if (app.view === "dispute") renderDispute();
}

function renderStatus(state) {
  const status = state.status || "watching";
  const bar = $("status-bar");
  bar.dataset.status = status;
  const words = app.catalog.ui["status." + status] || status;
  // The session's own sentence is English: shown to English viewers only.
  const detail = app.catalog.lang === "en" && state.status_message ? " · " + state.status_message : "";
  $("status-text").textContent = words + detail;
}

/* Player names of a side; a default name that is just the colour ("Blue") is not repeated. */
function playersOf(state, color) {
  return (state.players || [])
    .filter((p) => p.team === color && String(p.name).toLowerCase() !== color)
    .map((p) => p.name);
}

function renderTurn(state) {
  $("turn-number").textContent = state.turn ?? "–";
  $("turn-card").classList.toggle("over", Boolean(state.winner));
  const mover = state.to_move || {};
  $("to-move-name").textContent = mover.name || "–";
  $("to-move-swatch").dataset.team = mover.team || "";
  $("to-move-swatch").title = colorName(mover.team);
  $("turn-card").dataset.team = mover.team || "";
  const declared = state.declared_card;
  $("declared-card").hidden = !declared;
  if (declared) $("declared-card").textContent = t("turn.declared", { card: cardLabel(declared.card) });
  const scores = $("scores");
  scores.replaceChildren();
  const teams = Object.keys(state.sequences || {});
  for (const color of teams) {
    const count = state.sequences[color];
    const names = playersOf(state, color).join(", ");
    scores.append(el("div", { class: "score", "data-team": color },
      el("span", { class: "swatch", "data-team": color }),
      el("span", { class: "score-team", text: colorName(color) }),
      el("span", { class: "score-names muted", text: names }),
      el("b", { class: "score-count", text: count + " / " + (state.needed ?? "?") })));
  }
}

function sequenceCellSet(state) {
  const cells = new Map();
  for (const [color, runs] of Object.entries(state.sequence_cells || {})) {
    for (const run of runs) for (const name of run) cells.set(name, color);
  }
  return cells;
}

function lastMoveCell(state) {
  const moves = state.moves || [];
  if (!moves.length) return null;
  const last = moves[moves.length - 1];
  return last.place || last.remove || null;
}

function renderBoard(state) {
  const board = $("board");
  const rows = state.board || [];
  const inSequence = sequenceCellSet(state);
  const last = lastMoveCell(state);
  const mismatch = new Set(state.mismatch || []);
  const unreadable = new Set(state.unreadable || []);
  if (board.children.length !== 100) buildBoard(board);
  for (let r = 0; r < 10; r++) {
    for (let c = 0; c < 10; c++) {
      const name = cellName(r, c);
      const node = board.children[r * 10 + c];
      const symbol = (rows[r] || "")[c] || "?";
      const color = SYMBOL_COLOR[symbol] || "";
      node.dataset.chip = color || (symbol === "*" ? "corner" : symbol === "?" ? "unknown" : "");
      node.classList.toggle("in-sequence", inSequence.has(name));
      node.classList.toggle("last-move", name === last);
      node.classList.toggle("mismatch", mismatch.has(name));
      node.classList.toggle("unreadable", unreadable.has(name));
      const chipWord = color ? colorName(color) : symbol === "*" ? t("chip.corner") : t("chip.empty");
      node.setAttribute("aria-label", name + ": " + chipWord + (inSequence.has(name) ? ", " + t("board.in_sequence") : ""));
    }
  }
}

function buildBoard(board) {
  board.replaceChildren();
  for (let r = 0; r < 10; r++) {
    for (let c = 0; c < 10; c++) {
      const name = cellName(r, c);
      const label = app.layout ? cardLabel(app.layout[r][c]) : "";
      const card = app.layout ? app.layout[r][c] : "";
      const node = el("button", { type: "button", class: "cell", "data-cell": name,
        onclick: () => openCellDialog(name) },
        el("span", { class: "cell-card " + cardClass(card), text: card === "*" || card === "FREE" ? "★" : label }),
        el("span", { class: "cell-name", text: name }),
        el("span", { class: "chip" }));
      board.append(node);
    }
  }
}

function moveText(move) {
  if (!move) return "";
  const parts = [];
  if (move.player) parts.push(move.player);
  if (move.card) parts.push(cardLabel(move.card));
  if (move.place) parts.push("→ " + move.place);
  if (move.remove) parts.push("✕ " + move.remove);
  if (move.dead) parts.push(t("move.dead", { card: cardLabel(move.dead) }));
  if (!move.player && move.color) parts.unshift(colorName(move.color));
  return parts.join(" ");
}

/* Rulings carry their move number as "move" (referee JSON) or "move_number"; null for a board
 * mismatch, which is about the board rather than a move. */
function rulingNumber(ruling) {
  if (typeof ruling.move_number === "number") return ruling.move_number;
  return typeof ruling.move === "number" ? ruling.move : null;
}

/* Ruling numbers count every attempt (refused ones too) while the moves list holds only the
 * applied moves, so the n-th legal ruling is the n-th move. */
function movesByRuling(rulings, moves) {
  const byIndex = new Map();
  let applied = 0;
  rulings.forEach((ruling, index) => {
    if (ruling.legal && rulingNumber(ruling) !== null && applied < moves.length) byIndex.set(index, moves[applied++]);
  });
  return byIndex;
}

function rulingMove(ruling, index) {
  const move = app.movesByRuling && app.movesByRuling.get(index);
  if (move) return move;
  return { player: ruling.player, color: ruling.color, place: ruling.place, remove: ruling.remove };
}

function rulingKey(ruling, index) {
  return index + ":" + rulingNumber(ruling) + ":" + ruling.code;
}

function renderRulings(rulings, moves) {
  app.movesByRuling = movesByRuling(rulings, moves);
  const list = $("rulings");
  list.replaceChildren();
  const now = Date.now() / 1000;
  rulings.forEach((ruling, index) => {
    const key = rulingKey(ruling, index);
    if (!(key in window.companionMetrics.rulingShownAt)) window.companionMetrics.rulingShownAt[key] = now;
    const content = JSON.stringify([ruling.move ?? null, ruling.code ?? null, ruling.message ?? null]);
    if (!(content in window.companionMetrics.rulingShownAtByContent)) window.companionMetrics.rulingShownAtByContent[content] = now;
    list.prepend(rulingItem(ruling, index, moves));
  });
  const latest = rulings.length - 1;
  $("latest-ruling").replaceChildren(latest >= 0 ? rulingItem(rulings[latest], latest, moves, true)
    : el("span", { class: "muted", text: t("rulings.none") }));
}

function rulingCells(ruling) {
  if (ruling.cells && ruling.cells.length) return ruling.cells;
  return [...new Set((ruling.message || "").match(/\b[A-J](?:10|[1-9])\b/g) || [])];
}

/* The referee's own sentence names the cells and the card; it is English, so other languages
 * get the cells it names under a translated label. */
function rulingDetail(ruling) {
  const message = ruling.message || "";
  if (app.catalog.lang === "en" && message && message !== codeText(ruling)) {
    return el("div", { class: "ruling-detail", text: message });
  }
  const named = rulingCells(ruling);
  return named.length ? el("div", { class: "ruling-detail", text: t("rulings.cells", { cells: named.join(" ") }) }) : null;
}

function rulingTitle(ruling) {
  const number = rulingNumber(ruling);
  return number ? t("rulings.move_n", { n: number }) : t("rulings.board");
}

function rulingItem(ruling, index, moves, big) {
  const href = "#ruling/" + index;
  const move = rulingMove(ruling, index);
  const number = rulingNumber(ruling);
  const rule = ruling.rule ? el("a", { class: "rule-ref", href, text: "§ " + ruling.rule + " · " + t("rulings.details") }) : null;
  const sequences = (ruling.new_sequences || []).length
    ? el("div", { class: "new-sequence", text: t("rulings.new_sequence", { cells: ruling.new_sequences.map((s) => s.join(" ")).join(" · ") }) })
    : null;
  const cells = rulingDetail(ruling);
  return el(big ? "div" : "li", { class: "ruling " + (ruling.legal ? "legal" : "illegal"), "data-move": number ?? "", "data-code": ruling.code, "data-index": index },
    el("div", { class: "ruling-head" },
      el("span", { class: "badge", text: ruling.legal ? t("rulings.legal") : t("rulings.illegal") }),
      el("a", { class: "move-link", href, text: rulingTitle(ruling) }),
      el("span", { class: "move-text", text: moveText(move) })),
    el("div", { class: "ruling-text", text: codeText(ruling) }),
    cells,
    sequences,
    rule);
}

function renderDeadCards(cards) {
  const box = $("dead-cards");
  box.replaceChildren();
  if (!cards.length) box.append(el("span", { class: "muted", text: t("dead.none") }));
  for (const card of cards) box.append(el("span", { class: cardClass(card), text: cardLabel(card) }));
}

function renderWinner(state) {
  const banner = $("winner-banner");
  if (!state.winner) { banner.hidden = true; return; }
  const names = playersOf(state, state.winner).join(", ");
  banner.replaceChildren(
    el("span", { class: "trophy", text: "★" }),
    el("span", { text: t("winner.announce", { team: colorName(state.winner), players: names }) }));
  banner.dataset.team = state.winner;
  banner.hidden = false;
}

// ------------------------------------------------------------------ live events

function connectEvents() {
  const source = new EventSource("/api/events");
  const dot = $("live-dot");
  source.onopen = () => { dot.classList.add("on"); dot.title = t("live.online"); };
  source.onerror = () => {
    dot.classList.remove("on");
    dot.title = t("live.offline");
    // The browser retries by itself unless the server refused (e.g. 503 when every live slot
    // is taken): then poll the state and try the live stream again a little later.
    if (source.readyState === EventSource.CLOSED) {
      refreshState();
      setTimeout(connectEvents, 5000);
    }
  };
  source.addEventListener("state", (event) => {
    window.companionMetrics.eventsReceived += 1;
    const data = JSON.parse(event.data);
    renderState(data.state || data);
  });
  source.addEventListener("ruling", (event) => {
    window.companionMetrics.eventsReceived += 1;
    const data = JSON.parse(event.data);
    showRulingNow(data.ruling || data);
    scheduleRefresh();
  });
  for (const kind of ["status", "camera", "mismatch", "unseen"]) {
    source.addEventListener(kind, (event) => {
      window.companionMetrics.eventsReceived += 1;
      const data = JSON.parse(event.data);
      if (app.state && data.status) {
        app.state.status = data.status;
        app.state.status_message = data.message || data.status_message || "";
        renderStatus(app.state);
      }
      if (kind === "mismatch" && data.cells) toast(t("mismatch", { cells: data.cells.join(" ") }), "error");
      if (kind === "unseen" && data.cells) toast(t("unseen", { cells: unseenCells(data) }), "error");
      if (kind === "camera" || kind === "unseen") scheduleRefresh();
    });
  }
}

/* The cells the camera cannot read, each with why when the reading says (a hand, glare...). */
function unseenCells(data) {
  const reasons = data.reasons || {};
  return data.cells
    .map((cell) => (reasons[cell] ? `${cell} (${t("unseen." + reasons[cell])})` : cell))
    .join(" ");
}

/* A ruling event carries the ruling itself: show it at once, the full state follows. */
function showRulingNow(ruling) {
  if (!app.state) return;
  const rulings = app.state.rulings || [];
  const known = rulings.some((r) => rulingNumber(r) === rulingNumber(ruling) && r.code === ruling.code && r.message === ruling.message);
  if (!known) {
    app.state.rulings = rulings.concat([ruling]);
    renderRulings(app.state.rulings, app.state.moves || []);
  }
}

function scheduleRefresh() {
  clearTimeout(scheduleRefresh.timer);
  scheduleRefresh.timer = setTimeout(refreshState, 150);
}

async function refreshState() {
  const response = await fetch("/api/state");
  if (response.ok) renderState(await response.json());
}

// ------------------------------------------------------------------ views

function showView() {
  const hash = location.hash.replace(/^#/, "") || "game";
  const [view, arg] = hash.split("/");
  app.view = ["game", "camera", "setup", "calibrate", "move", "ruling"].includes(view) ? view : "game";
  if (app.view === "move") { app.view = "dispute"; app.dispute = { move: parseInt(arg, 10) || 1 }; }
  if (app.view === "ruling") { app.view = "dispute"; app.dispute = { index: parseInt(arg, 10) || 0 }; }
  for (const panel of document.querySelectorAll("[data-view-panel]")) {
    panel.hidden = panel.dataset.viewPanel !== app.view;
  }
  for (const link of document.querySelectorAll(".tabs a")) {
    link.classList.toggle("active", link.dataset.view === app.view);
  }
  // Streams and pictures load only while their view is open (saves phones' data and threads).
  const cameraOpen = app.view === "camera";
  setImage($("camera-stream"), cameraOpen ? "/api/stream.mjpg" : "");
  setImage($("board-image"), cameraOpen ? "/api/board.jpg?t=" + Date.now() : "");
  clearInterval(app.calibrationTimer);
  if (app.view === "calibrate") {
    refreshCalibration();
    app.calibrationTimer = setInterval(refreshCalibration, 1500);
  }
  if (app.view === "dispute") renderDispute();
  if (app.view === "setup") prefillSetup();
}

/* Camera pictures say so when there is none yet (no frame, board not found, stream full). */
function setImage(img, src) {
  if (!img) return;
  const missing = img.parentElement.querySelector(".camera-missing");
  if (missing && !img.dataset.watched) {
    img.dataset.watched = "1";
    img.addEventListener("error", () => {
      img.hidden = true;
      missing.hidden = false;
      // the stream may come back (camera reconnected, a viewer slot freed): try again shortly
      const wanted = img.getAttribute("src");
      if (wanted) setTimeout(() => { if (img.getAttribute("src") === wanted) img.src = wanted.split("?")[0] + "?r=" + Date.now(); }, 5000);
    });
    img.addEventListener("load", () => { img.hidden = false; missing.hidden = true; });
  }
  if (!src) { img.removeAttribute("src"); return; }
  img.src = src;
}

function refreshCalibration() {
  const stamp = Date.now();
  setImage($("calibrate-frame"), "/api/frame.jpg?t=" + stamp);
  setImage($("calibrate-board"), "/api/board.jpg?t=" + stamp);
}

/* The ruling a dispute view shows: by index in the rulings log, or the last one of a move. */
function disputedRuling() {
  const rulings = (app.state && app.state.rulings) || [];
  const want = app.dispute || { index: rulings.length - 1 };
  if (want.index !== undefined) return { ruling: rulings[want.index], index: want.index };
  for (let i = rulings.length - 1; i >= 0; i--) {
    if (rulingNumber(rulings[i]) === want.move) return { ruling: rulings[i], index: i };
  }
  return { ruling: null, index: -1, move: want.move };
}

function renderDispute() {
  const { ruling, index, move: wanted } = disputedRuling();
  const moves = (app.state && app.state.moves) || [];
  const number = ruling ? rulingNumber(ruling) : wanted;
  $("dispute-number").textContent = ruling ? rulingTitle(ruling) : t("rulings.move_n", { n: wanted ?? "?" });
  const box = $("dispute-ruling");
  box.replaceChildren(ruling ? rulingItem(ruling, index, moves, true)
    : el("p", { class: "muted", text: t("dispute.no_ruling") }));
  $("dispute-rule-id").textContent = ruling && ruling.rule ? "§ " + ruling.rule : "";
  $("dispute-rule-text").textContent = ruling ? ruleText(ruling.rule) || ruling.message || "" : "";
  // Every ruling keeps its pictures under its id (a move number finds an accepted move's).
  let base = null;
  if (ruling && ruling.id) base = "/api/evidence/ruling/" + ruling.id + "/";
  else if (ruling && ruling.legal && number) base = "/api/evidence/" + number + "/";
  for (const which of ["before", "after"]) {
    const img = $("evidence-" + which);
    const missing = img.parentElement.querySelector(".missing");
    img.onerror = () => { img.hidden = true; missing.hidden = false; };
    const src = base ? base + which + ".jpg" : null;
    if (!src) {
      img.removeAttribute("src");
      img.hidden = true;
      missing.hidden = false;
    } else if (img.getAttribute("src") !== src) {
      img.hidden = false;
      missing.hidden = true;
      img.src = src;
    }
  }
  const move = ruling ? rulingMove(ruling, index) : {};
  const target = ruling && (move.place || move.remove || rulingCells(ruling)[0]);
  if (target && document.activeElement !== $("correct-cell")) $("correct-cell").value = target;
}

// ------------------------------------------------------------------ check my card

async function checkCard(event) {
  event.preventDefault();
  const card = $("check-card-input").value.trim().toUpperCase();
  const out = $("check-result");
  if (!card) return;
  const response = await fetch("/api/cards/" + encodeURIComponent(card));
  if (!response.ok) {
    out.replaceChildren(el("span", { class: "error", text: await errorMessage(response) }));
    return;
  }
  const info = await response.json();
  let text;
  if (info.kind === "two_eyed") text = t("check.two_eyed");
  else if (info.kind === "one_eyed") text = t("check.one_eyed");
  else if (info.dead) text = t("check.dead");
  else text = t("check.cells", { cells: (info.cells || []).join(", ") || "–" });
  out.replaceChildren(el("span", { class: cardClass(info.card), text: cardLabel(info.card) }),
    el("span", { class: info.dead ? "dead-verdict" : "", text: " " + text }));
}

// ------------------------------------------------------------------ corrections

function openCellDialog(name) {
  const dialog = $("cell-dialog");
  $("cell-dialog-name").textContent = name;
  dialog.dataset.cell = name;
  dialog.showModal();
}

async function correctCell(cell, value) {
  const result = await post("/api/correct", { cell, value });
  if (result) toast(t("correct.done", { cell }), "ok");
}

function bindCorrections() {
  for (const button of document.querySelectorAll("#cell-dialog [data-value]")) {
    button.addEventListener("click", () => {
      const dialog = $("cell-dialog");
      dialog.close();
      correctCell(dialog.dataset.cell, button.dataset.value);
    });
  }
  $("cell-cancel").addEventListener("click", () => $("cell-dialog").close());
  $("correct-cell-form").addEventListener("submit", (event) => {
    event.preventDefault();
    correctCell($("correct-cell").value.trim().toUpperCase(), $("correct-value").value);
  });
  $("declare-card-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await post("/api/declare-card", { card: $("declare-card").value.trim().toUpperCase() })) toast(t("declare.done"), "ok");
  });
  $("declare-dead-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await post("/api/declare-dead", { card: $("declare-dead").value.trim().toUpperCase() });
    const ruling = answer && answer.result;
    if (ruling && ruling.legal === false) toast(codeText(ruling), "error");
    else if (answer) toast(t("declare.done"), "ok");
  });
  $("choose-sequence-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const cells = $("choose-cells").value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean);
    if (await post("/api/choose-sequence", { color: $("choose-color").value, cells })) toast(t("choose.done"), "ok");
  });
  $("undo-button").addEventListener("click", async () => {
    if (!confirm(t("correct.undo_confirm"))) return;
    if (await post("/api/undo", {})) toast(t("correct.undone"), "ok");
  });
  $("orientation-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = new FormData(event.target).get("orientation");
    calibrated(await post("/api/calibration", { orientation: parseInt(value, 10) }), "calibrate.saved");
  });
  $("capture-empty").addEventListener("click", async () => {
    calibrated(await post("/api/calibration", { capture_empty: true }), "calibrate.captured");
  });
  // corners the table taps on the camera picture, in its own pixels (a board not found)
  $("calibrate-frame").addEventListener("click", (event) => {
    const point = framePixel($("calibrate-frame"), event);
    if (!point) return;
    if (app.marks.length >= 4) app.marks = [];
    app.marks.push(point);
    drawMarks();
  });
  $("clear-marks").addEventListener("click", () => { app.marks = []; drawMarks(); });
  $("use-corners").addEventListener("click", async () => {
    if (app.marks.length !== 4) return;
    const answer = await post("/api/calibration", { corners: app.marks });
    if (answer) { app.marks = []; drawMarks(); }
    calibrated(answer, "calibrate.corners_saved");
  });
  $("auto-corners").addEventListener("click", async () => {
    calibrated(await post("/api/calibration", { corners: null }), "calibrate.corners_auto");
  });
  $("calibrate-frame").addEventListener("load", drawMarks); // (its size known, or changed)
  window.addEventListener("resize", drawMarks);
  drawMarks();
}

/* Where a tap on an image falls in the picture's own pixels (the picture is scaled to fit
   its box and centred in it: object-fit contain), or null outside the picture. */
function framePixel(img, event) {
  const box = img.getBoundingClientRect();
  const fit = pictureBox(img, box);
  if (!fit) return null;
  const x = (event.clientX - box.left - fit.left) / fit.scale;
  const y = (event.clientY - box.top - fit.top) / fit.scale;
  if (x < 0 || y < 0 || x > img.naturalWidth || y > img.naturalHeight) return null;
  return [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
}

function pictureBox(img, box) {
  if (!img.naturalWidth || !img.naturalHeight || !box.width || !box.height) return null;
  const scale = Math.min(box.width / img.naturalWidth, box.height / img.naturalHeight);
  return {
    scale,
    left: (box.width - img.naturalWidth * scale) / 2,
    top: (box.height - img.naturalHeight * scale) / 2,
  };
}

function drawMarks() {
  const area = $("mark-area");
  const img = $("calibrate-frame");
  if (!area || !img) return;
  area.querySelectorAll(".mark").forEach((mark) => mark.remove());
  const fit = pictureBox(img, img.getBoundingClientRect());
  if (fit) {
    for (const [x, y] of app.marks) {
      const mark = el("span", { class: "mark" });
      // (set through the style object: the page's CSP allows no inline style attribute)
      mark.style.left = `${img.offsetLeft + fit.left + x * fit.scale}px`;
      mark.style.top = `${img.offsetTop + fit.top + y * fit.scale}px`;
      area.append(mark);
    }
  }
  $("marks-status").textContent = app.marks.length ? t("calibrate.marks", { count: app.marks.length }) : "";
  $("use-corners").disabled = app.marks.length !== 4;
}

function calibrated(answer, key) {
  if (!answer) return;
  const file = answer.result && answer.result.file;
  toast(t(key) + (file ? " " + t("calibrate.saved_file", { file }) : ""), "ok");
}

// ------------------------------------------------------------------ new game setup

function playerRow(name, team) {
  const row = el("li", { class: "player-row" }, el("span", {},
    el("input", { class: "player-name", value: name || "", maxlength: "24", "aria-label": t("setup.name"), placeholder: t("setup.name") }),
    el("select", { class: "player-team", "aria-label": t("setup.team") },
      ...["blue", "green", "red"].map((c) => el("option", { value: c, selected: c === team, text: colorName(c) }))),
    el("button", { type: "button", class: "ghost small", title: t("setup.up"), text: "↑", onclick: () => { if (row.previousElementSibling) row.previousElementSibling.before(row); renderSetupProblems(); } }),
    el("button", { type: "button", class: "ghost small", title: t("setup.remove"), text: "✕", onclick: () => { row.remove(); renderSetupProblems(); } })));
  row.addEventListener("input", renderSetupProblems);
  row.addEventListener("change", renderSetupProblems);
  return row;
}

function prefillSetup() {
  const list = $("setup-players");
  if (list.children.length) return;
  const players = (app.state && app.state.players && app.state.players.length) ? app.state.players
    : [{ name: "", team: "blue" }, { name: "", team: "green" }];
  for (const p of players) list.append(playerRow(p.name, p.team));
  renderSetupProblems();
}

function setupFromForm() {
  const options = {};
  for (const select of document.querySelectorAll("[data-option]")) {
    const value = select.value;
    if (value === "") continue;
    options[select.dataset.option] = /^\d+$/.test(value) ? parseInt(value, 10)
      : value === "true" ? true : value === "false" ? false : value;
  }
  const players = Array.from(document.querySelectorAll("#setup-players .player-row")).map((row) => ({
    name: row.querySelector(".player-name").value.trim(),
    team: row.querySelector(".player-team").value,
  }));
  return { variant: $("setup-variant").value, options, players };
}

/* The table's own checks, shown as you type; the referee checks again on the server. */
function setupProblems(setup) {
  const problems = [];
  const players = setup.players;
  const allowed = [2, 3, 4, 6, 8, 9, 10, 12];
  if (!allowed.includes(players.length)) problems.push(t("setup.problem.count", { n: players.length }));
  const names = players.map((p) => p.name.toLowerCase());
  if (names.some((n) => !n)) problems.push(t("setup.problem.name"));
  if (new Set(names).size !== names.length) problems.push(t("setup.problem.duplicate"));
  const teams = [...new Set(players.map((p) => p.team))];
  const sizes = teams.map((team) => players.filter((p) => p.team === team).length);
  if (teams.length < 2) problems.push(t("setup.problem.one_team"));
  else if (new Set(sizes).size > 1) problems.push(t("setup.problem.unequal"));
  else if (teams.length === 2 && teams.includes("red") && !teams.includes("blue")) problems.push(t("setup.problem.red"));
  else if (players.some((p, i) => i >= teams.length && p.team !== players[i - teams.length].team)) problems.push(t("setup.problem.seating"));
  return problems;
}

function renderSetupProblems() {
  const list = $("setup-problems");
  if (!list || !$("setup-players").children.length) return;
  list.replaceChildren(...setupProblems(setupFromForm()).map((p) => el("li", { text: p })));
}

function bindSetup() {
  $("add-player").addEventListener("click", () => {
    const rows = $("setup-players").children.length;
    $("setup-players").append(playerRow("", ["blue", "green", "red"][rows % 2]));
    renderSetupProblems();
  });
  $("setup-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const setup = setupFromForm();
    const problems = setupProblems(setup);
    renderSetupProblems();
    if (problems.length) { toast(problems[0], "error"); return; }
    if (await post("/api/game", setup)) {
      toast(t("setup.started"), "ok");
      location.hash = "#game";
    }
  });
}

// ------------------------------------------------------------------ start

async function loadLayout() {
  try {
    const response = await fetch("/api/layout");
    if (response.ok) app.layout = (await response.json()).cells;
  } catch (e) { /* the board shows cell names only */ }
}

async function start() {
  $("lang").addEventListener("change", (event) => loadLanguage(event.target.value));
  $("pin-button").addEventListener("click", () => unlock());
  $("pin-cancel").addEventListener("click", () => $("pin-dialog").close(""));
  $("check-card-form").addEventListener("submit", checkCard);
  bindCorrections();
  bindSetup();
  window.addEventListener("hashchange", showView);
  await loadLanguage(preferredLanguage());
  storePin(storedPin());
  await loadLayout();
  buildBoard($("board"));
  showView();
  await refreshState();
  connectEvents();
}

document.addEventListener("DOMContentLoaded", () => { start().catch((e) => toast(String(e), "error")); });
