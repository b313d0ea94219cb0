/* Gin Rummy in the browser.
 *
 * The server decides everything: this page sends requests over one WebSocket (/ws) and draws the
 * observation of its own seat that the server sends back.  The browser keeps only game ids and seat
 * tokens (localStorage "ginrummy.seats") and display preferences ("ginrummy.prefs").
 * Protocol: docs/web.md.
 */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const SUIT = { c: ["♣", "clubs"], d: ["♦", "diamonds"], h: ["♥", "hearts"], s: ["♠", "spades"] };
  const RANK_NAME = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };
  const RANK_ORDER = "A23456789TJQK";
  const SUIT_ORDER = "cdhs";
  const SPRITE = "/static/cards.svg";
  const REDUCED = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: true };
  const CARD_TOKEN = /\b(10|[A2-9TJQK])([cdhs])\b/g;

  const S = {
    ws: null,
    open: false,
    queue: [],
    retry: 0,
    game: null,
    drag: null, // a finger dragging a card of the hand ({stale, since}): the hand is redrawn when it ends
    seat: null,
    token: null,
    obs: null,
    table: null,
    log: null,
    prevHand: [],
    selected: null,
    sitterPick: null,
    arrangements: null, // knocker_arrangement=choose: the melds offered for the knock or gin chosen
    hint: null,
    info: null,
    view: null,
    invite: null,
    verified: {},
    away: false, // the player went to the lobby or the statistics: state messages do not pull them back
  };

  // ---------------------------------------------------------------- storage
  function load(key, fallback) {
    try {
      const v = JSON.parse(localStorage.getItem(key));
      return v === null || v === undefined ? fallback : v;
    } catch (e) {
      return fallback;
    }
  }
  function store(key, value) {
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch (e) {
      /* private mode: play on without saving */
    }
  }
  /** The lobby's choices, remembered for next time: the game, the computer player and the
   * options of each game, the names, watching, and the table's game and hints. */
  /** ``v`` if it is a plain object, else a new empty one: what was remembered may be damaged (an
   * older page, an edit), and only an object is read as one. */
  function obj(v) {
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  }
  function settings() {
    const s = Object.assign({}, obj(load("ginrummy.settings", {})));
    s.opponents = obj(s.opponents);
    s.options = obj(s.options);
    return s;
  }
  function saveSettings(change) {
    const s = settings();
    for (const [k, v] of Object.entries(change)) {
      if (k === "opponents" || k === "options") s[k] = Object.assign(s[k] || {}, v);
      else s[k] = v;
    }
    store("ginrummy.settings", s);
  }
  const prefs = Object.assign({ four: false, large: false, contrast: false, sort: "suit" }, load("ginrummy.prefs", {}));
  /** Variant facts from the server (titles, solitaire or not): the page tests no variant name. */
  function variantInfo(v) {
    return (S.info && S.info.variants && S.info.variants[v]) || null;
  }
  function variantTitle(v) {
    const f = variantInfo(v);
    return f ? f.title : v;
  }
  /** A saved game's title in the lobby's list: a table of people says so. */
  function savedTitle(g) {
    return g.kind === "table" ? _("{game} (table)", { game: variantTitle(g.variant) }) : variantTitle(g.variant);
  }

  /** The player's own order of the cards of a hand (by dragging or Alt+arrows), kept per game and hand. */
  function handOrder() {
    const o = S.obs;
    if (!o || !S.game) return null;
    const all = load("ginrummy.order", {});
    const mine = all[S.game];
    return mine && mine.hand === o.hand_number && Array.isArray(mine.order) ? mine.order : null;
  }
  function saveHandOrder(order) {
    const all = obj(load("ginrummy.order", {}));
    all[S.game] = { hand: S.obs.hand_number, order };
    const ids = Object.keys(all);
    if (ids.length > 20) delete all[ids[0]];
    store("ginrummy.order", all);
  }
  function seats() {
    return obj(load("ginrummy.seats", {}));
  }
  function rememberSeat(game, data) {
    const all = seats();
    all[game] = Object.assign(obj(all[game]), data, { at: Date.now() });
    store("ginrummy.seats", all);
    store("ginrummy.current", game);
  }
  function forgetSeat(game) {
    const all = seats();
    delete all[game];
    store("ginrummy.seats", all);
    if (load("ginrummy.current", null) === game) store("ginrummy.current", null);
  }
  function commitments(game) {
    return (seats()[game] || {}).commitments || {};
  }
  function rememberCommitment(game, hand, value) {
    const all = seats();
    if (!all[game] || typeof all[game] !== "object") return;
    const c = obj(all[game].commitments);
    if (c[hand] === value) return;
    c[hand] = value;
    all[game].commitments = c;
    store("ginrummy.seats", all);
  }

  // ---------------------------------------------------------------- language
  /** The page speaks the language of ?lang=, else the one chosen in Display (remembered), else the
   * browser's (the server reads Accept-Language).  Its texts come from the server's catalogs
   * (/api/messages): _(english, values) looks one up and fills in its {placeholders}. */
  const LANG = { code: "en", messages: {}, cards: {}, agents: {}, results: {} };
  function askedLanguage() {
    const q = new URLSearchParams(location.search).get("lang");
    return q || load("ginrummy.lang", null);
  }
  function _(text, values) {
    const t = LANG.messages[text] || text;
    return values ? t.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m)) : t;
  }
  function langQuery() {
    return `lang=${encodeURIComponent(LANG.code)}`;
  }
  /** The static page's texts and labels (index.html) in the page's language. */
  function translateDom(root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    for (const node of nodes) {
      const text = node.nodeValue.split(/\s+/).join(" ").trim();
      if (text && LANG.messages[text] && !node.parentElement.closest("[translate=no]")) node.nodeValue = node.nodeValue.replace(node.nodeValue.trim(), LANG.messages[text]);
    }
    for (const attr of ["aria-label", "placeholder", "title"]) {
      for (const node of root.querySelectorAll(`[${attr}]`)) {
        const v = node.getAttribute(attr).split(/\s+/).join(" ").trim();
        if (LANG.messages[v]) node.setAttribute(attr, LANG.messages[v]);
      }
    }
  }
  async function loadMessages() {
    const asked = askedLanguage();
    try {
      const r = await fetch("/api/messages" + (asked ? `?lang=${encodeURIComponent(asked)}` : ""));
      const data = await r.json();
      LANG.code = data.lang;
      LANG.messages = data.messages || {};
      LANG.cards = data.cards || {};
      LANG.agents = data.agents || {};
      LANG.results = data.results || {};
    } catch (e) {
      /* the server's texts unavailable: English */
    }
    document.documentElement.lang = LANG.code === "xx" ? "en" : LANG.code;
    document.title = _("Gin Rummy");
    translateDom(document.body);
    const chooser = $("pref-lang");
    if (chooser) {
      chooser.value = LANG.code;
      chooser.addEventListener("change", () => {
        store("ginrummy.lang", chooser.value);
        const u = new URL(location.href);
        u.searchParams.delete("lang");
        location.replace(u.toString());
      });
    }
  }

  // ---------------------------------------------------------------- small DOM helpers
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }
  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }
  /** Replace a node's children, skipping null/false entries. */
  function fill(node, ...children) {
    clear(node).append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
    return node;
  }
  function rankOf(card) {
    return card[0];
  }
  function suitOf(card) {
    return card[1].toLowerCase();
  }
  function rankLabel(r) {
    return r === "T" ? "10" : r;
  }
  function cardName(card) {
    const r = rankOf(card);
    return LANG.cards[card] || `${RANK_NAME[r] || r} of ${SUIT[suitOf(card)][1]}`;
  }
  function cardShort(card) {
    return rankLabel(rankOf(card)) + SUIT[suitOf(card)][0];
  }
  /** A card in running text: rank, suit symbol and suit letter, e.g. 7♥h. */
  function mini(card, extra, moving) {
    const s = suitOf(card);
    return el(
      "span",
      { class: `mini suit-${s}${extra ? " " + extra : ""}`, title: cardName(card), "data-card": moving ? card : null },
      el("span", { "aria-hidden": "true" }, cardShort(card)),
      el("span", { "aria-hidden": "true", class: "letter-inline" }, s),
      el("span", { class: "visually-hidden" }, cardName(card)),
    );
  }
  function minis(cards) {
    return el("span", { class: "mini-cards" }, (cards || []).map((c) => mini(c)));
  }
  const SVGNS = "http://www.w3.org/2000/svg";
  /** A piece of the card sprite (static/cards.svg): a suit, the joker or the back. */
  function pip(id, cls) {
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", cls);
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    const use = document.createElementNS(SVGNS, "use");
    use.setAttribute("href", `${SPRITE}#${id}`);
    svg.append(use);
    return svg;
  }
  /** A card face drawn with the package's SVG suits: the corner index (rank, suit, suit letter)
   * on the left, where a fanned card still shows it, and a large suit in the middle; colour is
   * never the only cue. */
  function cardFace(card, attrs) {
    const s = suitOf(card);
    const r = rankOf(card);
    const tag = attrs && attrs.button === false ? "div" : "button";
    const a = Object.assign({ type: tag === "button" ? "button" : null, class: `card suit-${s}`, "data-card": card }, attrs || {});
    delete a.button;
    const court = "JQK".includes(r);
    return el(
      tag,
      a,
      el(
        "span",
        { class: "index", "aria-hidden": "true" },
        el("span", { class: "rank" }, rankLabel(r)),
        pip(`suit-${s}`, "suit-small"),
        el("span", { class: "letter" }, s),
      ),
      el("span", { class: `face${court ? " court" : ""}`, "aria-hidden": "true" }, court ? el("span", { class: "court-letter" }, r) : null, pip(`suit-${s}`, "suit-big")),
    );
  }
  function jokerFace() {
    return el(
      "div",
      { class: "card joker-card", role: "img", "aria-label": _("The joker") },
      el("span", { class: "index", "aria-hidden": "true" }, el("span", { class: "rank" }, "J"), el("span", { class: "letter" }, _("joker"))),
      el("span", { class: "face", "aria-hidden": "true" }, pip("joker", "suit-big")),
    );
  }
  /** Text with card tokens (7h, Td) turned into mini cards. */
  function richText(text) {
    const out = [];
    let last = 0;
    text.replace(CARD_TOKEN, (m, r, s, offset) => {
      out.push(text.slice(last, offset));
      out.push(mini((r === "10" ? "T" : r) + s));
      last = offset + m.length;
      return m;
    });
    out.push(text.slice(last));
    return out;
  }
  function actionLabel(action) {
    const [kind, card] = action.split(" ");
    const c = card ? ` ${cardShort(card)} (${card})` : "";
    switch (kind) {
      case "draw":
        return _("Draw from the stock");
      case "take":
        return topDiscard() ? _("Take the {card}", { card: `${cardShort(topDiscard())} (${topDiscard()})` }) : _("Take the discard");
      case "pass":
        return _("Pass");
      case "discard":
        return _("Discard{card}", { card: c });
      case "knock":
        return card ? _("Knock, discarding{card}", { card: c }) : _("Knock");
      case "gin":
        return card ? _("Gin, discarding{card}", { card: c }) : _("Big gin");
      default:
        return action;
    }
  }
  function topDiscard() {
    const o = S.obs;
    if (!o) return null;
    const pile = o.discard_pile || [];
    return pile.length ? pile[pile.length - 1] : null;
  }
  function name(seat) {
    const t = S.table;
    if (!t || !t.seats[seat]) return _("Seat {number}", { number: seat + 1 });
    const n = (t.shown_names && t.shown_names[seat]) || t.seats[seat].name;
    return seat === S.seat && t.seats[seat].name !== "You" && !watching() ? _("{name} (you)", { name: n }) : n;
  }
  /** A game of computer players only: the person watches seat 0 and never acts. */
  function watching() {
    return !!(S.table && S.table.watching);
  }
  function facts() {
    return (S.table && S.table.facts) || {};
  }
  function isSolo() {
    return !!facts().solo;
  }
  function flash(text) {
    const f = $("flash");
    f.textContent = text;
    f.hidden = !text;
    clearTimeout(flash.timer);
    if (text) flash.timer = setTimeout(() => (f.hidden = true), 8000);
  }

  // ---------------------------------------------------------------- connection
  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?" + langQuery();
    let ws;
    try {
      ws = new WebSocket(url);
    } catch (e) {
      scheduleReconnect();
      return;
    }
    S.ws = ws;
    ws.addEventListener("open", () => {
      S.open = true;
      S.retry = 0;
      $("conn").textContent = "";
      if (S.game && S.token) ws.send(JSON.stringify({ type: "hello", game: S.game, token: S.token }));
      const q = S.queue;
      S.queue = [];
      q.forEach((m) => ws.send(JSON.stringify(m)));
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      onMessage(msg);
    });
    ws.addEventListener("close", () => {
      S.open = false;
      if (S.ws === ws) scheduleReconnect();
    });
  }
  function scheduleReconnect() {
    S.retry += 1;
    const wait = Math.min(5000, 300 * 2 ** Math.min(S.retry, 5));
    $("conn").textContent = _("Connection lost: reconnecting to the same seat…");
    setTimeout(connect, wait);
  }
  function send(msg) {
    if (S.open && S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
    else S.queue.push(msg);
  }
  /** Play an action.  With knocker_arrangement=choose, a knock or gin first asks the server which
   * melds may be spread with it, and the player chooses (see renderArrangements). */
  function act(action) {
    if (S.table && S.table.choose_melds && /^(knock|gin)( |$)/.test(action) && !action.includes("|")) {
      send({ type: "arrangements", action });
      return;
    }
    S.arrangements = null;
    send({ type: "act", action });
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "joined": {
        const prev = S.game;
        S.game = msg.game;
        S.seat = msg.seat;
        S.invite = msg.invite;
        if (msg.token) S.token = msg.token;
        // the invitation codes that lead to this seat (the creator's links, or the one a friend used)
        const codes = msg.invites ? Object.values(msg.invites) : S.joinCode ? [S.joinCode] : [];
        const had = (seats()[msg.game] || {}).invites || [];
        rememberSeat(msg.game, { token: S.token, seat: msg.seat, variant: msg.variant, kind: msg.kind, invites: had.concat(codes) });
        if (prev !== msg.game) {
          S.obs = null;
          S.selected = null;
          S.hint = null;
          S.prevHand = [];
        }
        if (location.pathname !== "/") history.replaceState(null, "", "/");
        S.away = false;
        show("game");
        break;
      }
      case "state":
        onState(msg);
        break;
      case "hint":
        S.hint = msg;
        renderHint();
        break;
      case "replay":
        openReplay(msg);
        break;
      case "arrangements":
        if (msg.choices.length === 1) act(msg.choices[0].action); // nothing to choose
        else {
          S.arrangements = msg;
          if (S.view === "game") renderGame();
        }
        break;
      case "error":
        if (msg.code === "bad_token" || msg.code === "unknown_game" || msg.code === "seat_reissued") {
          if (S.game) forgetSeat(S.game);
          S.game = S.token = S.obs = null;
          S.away = false;
          show("lobby");
        }
        flash(msg.message);
        break;
      default:
        break;
    }
  }

  function onState(msg) {
    const before = S.obs;
    S.prevHand = before && before.hand_number === msg.obs.hand_number ? before.hand || [] : [];
    S.obs = msg.obs;
    S.table = msg.table;
    S.log = Array.isArray(msg.log) ? msg.log : null; // the session's move log, as this seat may read it
    const o = S.obs;
    if (watching()) o.to_act = false; // a computer plays the seat watched: the person never acts
    if (o.next_commitment) rememberCommitment(S.game, String(o.hand_number + 1), o.next_commitment);
    if (o.commitment && !commitments(S.game)[String(o.hand_number)]) {
      // Joined after the deal: remember what we were shown, flagged as seen late.
      rememberCommitment(S.game, String(o.hand_number), o.commitment);
    }
    // State shown as data attributes: handy for tests and user styles.
    const g = $("view-game");
    g.dataset.states = String((parseInt(g.dataset.states || "0", 10) || 0) + 1);
    g.dataset.phase = o.phase;
    g.dataset.toAct = String(!!o.to_act);
    g.dataset.hand = String(o.hand_number);
    g.dataset.gameOver = String(!!o.game_over);
    if (!(o.hand || []).includes(S.selected)) S.selected = null;
    S.arrangements = null;
    if (!o.to_act || (before && before.phase !== o.phase)) S.hint = null;
    if (S.view === "game") renderGame(true);
    else if (!S.away) show("game"); // navigation stays where the player put it
  }

  // ---------------------------------------------------------------- views
  function show(view) {
    if (S.view !== view) window.scrollTo(0, 0); // a new page starts at its top
    S.view = view;
    for (const v of ["lobby", "join", "game", "stats", "replay"]) $(`view-${v}`).hidden = v !== view;
    if (view === "replay") renderReplay();
    if (view === "lobby") renderLobby();
    if (view === "game") renderGame();
    if (view === "stats") loadStats();
    document.title = view === "game" && S.obs ? `${facts().title || S.obs.variant} · ${_("Gin Rummy")}` : _("Gin Rummy");
  }

  // ---------------------------------------------------------------- the game
  /** What had the keyboard focus in the game, so that it can be given back after a redraw. */
  function focusKey() {
    const a = document.activeElement;
    if (!a || a === document.body || !$("view-game").contains(a)) return null;
    return { card: a.closest("#hand") ? a.dataset.card : null, id: a.id || null, action: a.dataset.action || null };
  }
  function restoreFocus(k) {
    if (!k) return;
    const usable = (n) => n && !n.disabled && !n.hidden && n.getClientRects().length > 0;
    const a = document.activeElement;
    if (a && a !== document.body && $("view-game").contains(a) && usable(a)) return;
    let node = null;
    if (k.card) node = document.querySelector(`#hand .card[data-card="${k.card}"]`);
    if (!usable(node) && k.id) node = document.getElementById(k.id);
    if (!usable(node) && k.action) node = document.querySelector(`#actions [data-action="${k.action}"]`);
    if (!usable(node)) node = document.querySelector("#actions button:not([disabled])");
    if (!usable(node)) node = document.querySelector('#hand .card[tabindex="0"]');
    if (!usable(node)) node = $("main");
    node.focus({ preventScroll: true });
  }

  function renderGame(animate) {
    const o = S.obs;
    if (!o) {
      $("status").textContent = _("Joining the game…");
      return;
    }
    const focus = focusKey();
    const before = animate ? positions() : null;
    renderGameParts();
    restoreFocus(focus);
    if (before) animateFrom(before);
  }

  function renderGameParts() {
    document.title = `${facts().title || S.obs.variant} · ${_("Gin Rummy")}`;
    renderStatus();
    renderInvite();
    renderOpponents();
    renderCentre();
    renderSitter();
    renderSuggestion();
    renderHand();
    renderActions();
    renderResult();
    renderSheet();
    renderFair();
    renderLog();
    renderHint();
  }

  /** Three: the box, captain and sitter of the hand, as the server's session says (null otherwise). */
  function roles() {
    return (S.table && S.table.roles) || null;
  }

  // ---------------------------------------------------------------- animations
  // Draw, discard, spread and layoff: each card glides from where it was to where it is now
  // (FLIP, with the Web Animations API); a card new to the page comes from the stock.  Nothing
  // moves when the player asks for reduced motion.
  const MOVING = "#hand .card, #pile-top, #stock, #opponents [data-card], #result [data-card]";
  function positions() {
    if (REDUCED.matches || S.view !== "game") return null;
    const out = {};
    document.querySelectorAll(MOVING).forEach((n) => {
      const key = n.id === "stock" ? "#stock" : n.dataset.card;
      if (key && !(key in out)) out[key] = n.getBoundingClientRect();
    });
    return out;
  }
  function animateFrom(before) {
    if (REDUCED.matches || !before) return;
    const moves = [];
    document.querySelectorAll(MOVING).forEach((n) => {
      const key = n.dataset.card;
      if (!key || n.id === "stock") return;
      const from = before[key] || (n.closest("#hand") ? before["#stock"] : null);
      if (!from) return;
      const to = n.getBoundingClientRect();
      const dx = from.left - to.left;
      const dy = from.top - to.top;
      if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
      moves.push([n, dx, dy]);
    });
    for (const [n, dx, dy] of moves.slice(0, 24)) {
      if (!n.animate) continue;
      n.classList.add("moving");
      const anim = n.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], { duration: 260, easing: "ease-out" });
      anim.onfinish = anim.oncancel = () => n.classList.remove("moving");
    }
  }

  function lastOthersMove() {
    const h = S.obs.history || [];
    if (!h.length) return "";
    const last = h[h.length - 1];
    if (last.seat === S.seat || last.seat === null) return "";
    return describe(last.action, false, name(last.seat)) + " ";
  }
  /** An action in words; ``rich`` leaves the card as a token for richText() to draw. */
  function describe(action, rich, who) {
    const [kind, card] = action.split(" ");
    const c = card ? (rich ? card : cardShort(card) + ` (${card})`) : "";
    const v = { name: who || "", card: c };
    const text = {
      draw: _("{name}: draws from the stock.", v),
      take: _("{name}: takes the discard.", v),
      pass: _("{name}: passes.", v),
      discard: _("{name}: discards {card}.", v),
      knock: _("{name}: knocks, discarding {card}.", v),
      gin: card ? _("{name}: goes gin, discarding {card}.", v) : _("{name}: goes big gin.", v),
      layoff: _("{name}: lays off {card}.", v),
    }[kind];
    return text === undefined ? action : who ? text : text.replace(/^[^:]*:\s*/, "");
  }

  function renderStatus() {
    const o = S.obs;
    const t = S.table;
    let text;
    if (o.game_over) {
      const w = o.winner;
      text = w === null || w === undefined ? _("Game over: a tie.") : w === S.seat && !watching() ? _("Game over: you win.") : _("Game over: {name} wins.", { name: name(w) });
    } else if (o.phase === "deal") {
      if (t.waiting_for && t.waiting_for.length) {
        const n = t.waiting_for.length;
        text = _("Players still to join: {n}. Share the invitation links.", { n });
      } else if (o.hand_number === 0) {
        text = _("The first deal is committed (see Fair deal). Press Deal to deal it.");
      } else {
        text = _("Hand {number} is over.", { number: o.hand_number });
      }
    } else if (o.to_act) {
      const top = topDiscard();
      const tc = top ? `${cardShort(top)} (${top})` : "";
      text = lastOthersMove();
      if (o.phase === "upcard") text += _("Your turn: take the upcard {card} or pass.", { card: tc });
      else if (o.phase === "draw") text += o.legal_actions.includes("take") ? _("Your turn: draw from the stock or take {card}.", { card: tc }) : _("Your turn: draw from the stock.");
      else if (o.phase === "opening") text += _("Your turn: declare the dealt hand or draw.");
      else text += _("Your turn: discard a card (choose it, then choose again, drag it to the pile, or press X).");
    } else if (roles() && roles().sitter === S.seat) {
      text = lastOthersMove() + _("You are the sitter: you see the captain's hand and may suggest; {name} is to act.", { name: name(o.current_player) });
    } else if (o.current_player !== null && o.current_player !== undefined) {
      text = lastOthersMove() + _("{name} is to act…", { name: name(o.current_player) });
    } else {
      text = "";
    }
    if (t.failure) text += ` (${t.failure})`;
    $("status").textContent = text;
  }

  function inviteOrigin() {
    // Opened on this computer (127.0.0.1) while serving the network: friends need the network address.
    const local = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
    if (local && S.info && S.info.invite_base) return S.info.invite_base;
    return location.origin;
  }

  function seatLabel(t, seat) {
    const name = t.seats[seat] ? t.seats[seat].name : "";
    return name ? _("Seat {number} ({name})", { number: seat + 1, name }) : _("Seat {number}", { number: seat + 1 });
  }

  function renderInvite() {
    const box = $("invite-box");
    const t = S.table;
    const invites = (t && t.invites) || {};
    const replaceable = (t && t.replaceable) || [];
    if (!t || t.kind !== "table" || (!Object.keys(invites).length && !replaceable.length)) {
      box.hidden = true;
      return;
    }
    if (!S.info) loadInfo().then(renderInvite).catch(() => {});
    const parts = [el("p", {}, el("strong", {}, _("Invite your friends:")), " ", _("each seat has its own link; send each friend one. A link opens its seat once."))];
    const manage = (seat) => [
      el("button", { type: "button", class: "small", id: `invite-new-${seat}`, text: _("New link"), title: _("The old link stops working"), onclick: () => send({ type: "reissue", seat }) }),
      " ",
      el("button", { type: "button", class: "small", id: `invite-computer-${seat}`, text: _("Computer plays"), onclick: () => send({ type: "seat_computer", seat }) }),
    ];
    for (const [key, code] of Object.entries(invites)) {
      const seat = Number(key);
      const link = `${inviteOrigin()}/join/${code}`;
      const input = el("input", { id: `invite-link-${seat}`, class: "invite-link", readonly: true, value: link, "aria-label": _("Invitation link for {seat}", { seat: seatLabel(t, seat) }) });
      parts.push(
        el(
          "p",
          { class: "invite-seat" },
          el("span", {}, _("{seat}:", { seat: seatLabel(t, seat) }), " "),
          input,
          " ",
          el("button", {
            type: "button",
            class: "small",
            id: `invite-copy-${seat}`,
            text: _("Copy"),
            onclick: () => {
              input.select();
              if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => document.execCommand("copy"));
              else document.execCommand("copy");
              flash(_("Invitation link copied."));
            },
          }),
          " ",
          ...(replaceable.includes(seat) ? manage(seat) : []),
        ),
      );
    }
    for (const seat of replaceable) {
      if (invites[String(seat)] !== undefined) continue;
      parts.push(el("p", { class: "invite-seat" }, el("span", {}, _("{seat} has been away for a while:", { seat: seatLabel(t, seat) }), " "), ...manage(seat)));
    }
    fill(box, ...parts);
    box.hidden = false;
  }

  function seatBadges(i) {
    const o = S.obs;
    const t = S.table;
    const out = [];
    const seat = t.seats[i];
    const r = roles();
    if (r) {
      if (r.box === i) out.push(_("box"));
      if (r.captain === i) out.push(_("captain"));
      if (r.sitter === i) out.push(_("sitter"));
    } else if (o.dealer === i) out.push(_("dealer"));
    if (seat.kind === "computer") out.push(_("computer: {player}", { player: LANG.agents[seat.agent] || seat.agent }));
    if (seat.kind === "open") out.push(_("seat open"));
    if (seat.kind === "person" && !seat.connected && i !== S.seat) out.push(_("away"));
    if (o.phase === "deal" && seat.ready) out.push(_("ready"));
    if (o.current_player === i) out.push(_("to act"));
    return out.map((b) => el("span", { class: "badge" }, b));
  }

  function renderOpponents() {
    const box = clear($("opponents"));
    const o = S.obs;
    if (isSolo()) return;
    const sizes = o.hand_sizes || [];
    const shown = showdown();
    for (let i = 0; i < S.table.seats.length; i++) {
      if (i === S.seat) continue;
      const n = sizes[i] || 0;
      const known = (o.known_cards || {})[String(i)] || [];
      const backs = el("div", { class: "backs", role: "img", "aria-label": _("{n} cards, face down", { n }) });
      for (let k = 0; k < n; k++) backs.append(pip("back", "back"));
      let cards;
      if (shown && shown[i]) {
        // the hand is over: this seat's cards face up, as spread
        const sp = shown[i];
        cards = el(
          "div",
          { class: "faceup", role: "group", "aria-label": _("{name}'s cards, face up", { name: name(i) }) },
          sp.melds.map((m) => el("span", { class: "group" }, m.map((c) => cardFace(c, { button: false, class: `card small suit-${suitOf(c)}`, role: "img", "aria-label": cardName(c) })))),
          sp.laid.length ? el("span", { class: "group laid", title: _("laid off") }, sp.laid.map((c) => cardFace(c, { button: false, class: `card small suit-${suitOf(c)}`, role: "img", "aria-label": _("{card}, laid off", { card: cardName(c) }) }))) : null,
          sp.deadwood.length ? el("span", { class: "group dead" }, sp.deadwood.map((c) => cardFace(c, { button: false, class: `card small suit-${suitOf(c)}`, role: "img", "aria-label": _("{card}, deadwood", { card: cardName(c) }) }))) : null,
        );
      } else cards = n ? backs : el("div", { class: "muted" }, o.phase === "deal" ? "" : _("no cards this hand"));
      box.append(
        el(
          "div",
          { class: "opponent", "data-seat": i },
          el("div", { class: "who" }, name(i), ...seatBadges(i)),
          cards,
          known.length && !(shown && shown[i]) ? el("div", {}, _("Known to hold:"), " ", minis(known)) : null,
        ),
      );
    }
  }

  /** After a hand: each seat's spread from the result (melds, layoffs, deadwood), by seat. */
  function showdown() {
    const o = S.obs;
    const res = o.result;
    if (!res || (o.phase !== "deal" && o.phase !== "over") || res.knocker === null || res.knocker === undefined) return null;
    const out = {};
    out[res.knocker] = { melds: res.knocker_melds || [], laid: [], deadwood: res.knocker_unmatched || [] };
    const d = defenderSeat();
    if (d !== undefined) out[d] = { melds: res.defender_melds || [], laid: res.laid_off || [], deadwood: res.defender_unmatched || [] };
    return out;
  }
  /** The seat that defended the knock or gin that ended the hand, from the server's session. */
  function defenderSeat() {
    const d = S.table && S.table.defender;
    return d === null || d === undefined ? undefined : d;
  }

  function legal() {
    return (S.obs && S.obs.legal_actions) || [];
  }
  function can(action) {
    return legal().includes(action);
  }

  function renderCentre() {
    const box = clear($("centre"));
    const o = S.obs;
    if (o.phase === "deal" && !o.result) return;
    if (isSolo()) return renderSoloCentre(box);
    if (o.stock_size === undefined) return;
    const stock = el(
      "button",
      {
        type: "button",
        class: "stock",
        id: "stock",
        disabled: !can("draw"),
        "aria-label": _("Draw from the stock ({n} cards)", { n: o.stock_size }),
        onclick: () => act("draw"),
      },
      pip("back", "back-art"),
      el("span", { class: "stock-count" }, String(o.stock_size)),
    );
    const top = topDiscard();
    const pileArea = el(
      "div",
      { class: "pile-area", id: "pile" },
      el("span", { class: "label" }, o.phase === "upcard" ? _("Upcard") : _("Discard pile")),
      top
        ? cardFace(top, {
            id: "pile-top",
            disabled: !can("take"),
            "aria-label": can("take") ? _("{card}, top of the discard pile: take it", { card: cardName(top) }) : _("{card}, top of the discard pile", { card: cardName(top) }),
            onclick: () => act("take"),
          })
        : el("div", { class: "empty-slot" }, _("empty")),
    );
    dropTarget(pileArea);
    const pile = o.discard_pile || [];
    box.append(
      el("div", { class: "pile-area" }, el("span", { class: "label" }, _("Stock")), stock),
      pileArea,
      el(
        "div",
        { class: "pile-area pile-facts" },
        el("span", { class: "label" }, _("Knock limit {limit}", { limit: o.knock_limit })),
        discardHistory(pile, _("Discard history")),
      ),
    );
  }

  /** The whole discard pile, oldest first, folded away so that a turn fits a phone screen. */
  function discardHistory(cards, title) {
    const open = !!S.historyOpen;
    const d = el(
      "details",
      { class: "history", id: "discard-history", open },
      el("summary", {}, _("{title} ({n})", { title, n: cards.length })),
      el("p", { class: "label" }, cards.length ? _("Oldest first:") : _("No discards yet.")),
      el("ol", { class: "history-list" }, cards.map((c, i) => el("li", { "data-turn": String(i + 1) }, mini(c)))),
    );
    d.addEventListener("toggle", () => (S.historyOpen = d.open));
    return d;
  }

  function renderSoloCentre(box) {
    const o = S.obs;
    const pileArea = el(
      "div",
      { class: "pile-area", id: "pile" },
      el("span", { class: "label" }, facts().pile_label || _("Discard")),
      el("div", { class: "empty-slot" }, _("Deck {n}", { n: o.deck_size })),
    );
    dropTarget(pileArea);
    const items = [pileArea];
    if (o.phase === "opening" && can("draw")) {
      items.push(el("button", { type: "button", id: "stock", class: "stock", onclick: () => act("draw") }, _("Draw")));
    }
    if (o.joker_next_chance !== null && o.joker_next_chance !== undefined) {
      const pct = (o.joker_next_chance * 100).toFixed(1);
      const max = o.cards_above_joker_max;
      items.push(
        el(
          "div",
          { class: "joker-info", id: "joker-info" },
          el("div", {}, _("Cards in the deck, the joker among them: {n}", { n: o.deck_size })),
          el(
            "div",
            {},
            _("Cards left above its possible places:"),
            " ",
            el("strong", { id: "joker-above" }, _("0 to {max}", { max })),
            " ",
            _("(cards you have not seen: {n})", { n: o.unseen ? o.unseen.length : max }),
          ),
          el("div", {}, _("Chance the joker is next:"), " ", el("span", { class: "big", id: "joker-chance" }, `${pct}%`)),
          meter(o.joker_next_chance),
        ),
      );
    }
    items.push(
      el(
        "div",
        { class: "pile-area pile-facts" },
        el("span", { class: "label" }, _("Knock limit {limit} · draws {draws}", { limit: o.knock_limit, draws: o.draws })),
        discardHistory(o.discards || [], watching() ? _("{name}'s discards", { name: name(S.seat) }) : _("Your discards")),
      ),
    );
    box.append(...items);
  }

  function meter(fraction) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", "meter");
    svg.setAttribute("viewBox", "0 0 200 10");
    svg.setAttribute("aria-hidden", "true");
    const bg = document.createElementNS(ns, "rect");
    bg.setAttribute("width", "200");
    bg.setAttribute("height", "10");
    bg.setAttribute("fill", "#ffffff");
    const fg = document.createElementNS(ns, "rect");
    fg.setAttribute("width", String(Math.max(2, Math.round(200 * Math.min(1, fraction * 4)))));
    fg.setAttribute("height", "10");
    fg.setAttribute("fill", "#c2410c");
    svg.append(bg, fg);
    return svg;
  }

  function dropTarget(area) {
    area.addEventListener("dragover", (ev) => {
      const card = S.dragging;
      if (card && can(`discard ${card}`)) {
        ev.preventDefault();
        area.classList.add("drop-ok");
      }
    });
    area.addEventListener("dragleave", () => area.classList.remove("drop-ok"));
    area.addEventListener("drop", (ev) => {
      ev.preventDefault();
      area.classList.remove("drop-ok");
      const card = ev.dataTransfer.getData("text/plain") || S.dragging;
      if (card && can(`discard ${card}`)) act(`discard ${card}`);
    });
  }

  function sortedHand(hand) {
    const key =
      prefs.sort === "rank"
        ? (c) => RANK_ORDER.indexOf(rankOf(c)) * 4 + SUIT_ORDER.indexOf(suitOf(c))
        : (c) => SUIT_ORDER.indexOf(suitOf(c)) * 13 + RANK_ORDER.indexOf(rankOf(c));
    return [...hand].sort((a, b) => key(a) - key(b));
  }

  /** The hand in the order shown: the player's own order where they made one (new cards at the
   * right end), else sorted by suit or by rank. */
  function displayHand() {
    const hand = (S.obs && S.obs.hand) || [];
    const own = handOrder();
    if (!own) return sortedHand(hand);
    const kept = own.filter((c) => hand.includes(c));
    return kept.concat(sortedHand(hand.filter((c) => !kept.includes(c))));
  }
  function moveCard(card, to) {
    const order = displayHand();
    const from = order.indexOf(card);
    if (from < 0) return;
    order.splice(from, 1);
    order.splice(Math.max(0, Math.min(order.length, to)), 0, card);
    saveHandOrder(order);
    const before = positions();
    renderHand();
    animateFrom(before);
    const node = document.querySelector(`#hand .card[data-card="${card}"]`);
    if (node) node.focus({ preventScroll: true });
    $("order-status").textContent = _("{card} moved to place {place} of {count}.", { card: cardName(card), place: order.indexOf(card) + 1, count: order.length });
  }

  function renderHand() {
    // Not under a finger: redrawing would take the dragged card's node out of the page, and the
    // rest of the drag's events with it (the drag never ends). Drawn when the drag ends.
    if (S.drag && Date.now() - S.drag.since < 10000) {
      S.drag.stale = true; // (a drag whose end never came stops holding the hand back after 10 s)
      return;
    }
    S.drag = null;
    const o = S.obs;
    const box = clear($("hand"));
    const hand = displayHand();
    box.classList.add("fan");
    box.style.setProperty("--n", String(Math.max(1, hand.length)));
    box.style.setProperty("--n1", String(Math.max(0, hand.length - 1)));
    const meldOf = {};
    (o.melds || []).forEach((m, i) => m.forEach((c) => (meldOf[c] = i + 1)));
    const focusable = S.selected && hand.includes(S.selected) ? S.selected : hand[0];
    hand.forEach((card, idx) => {
      const inMeld = meldOf[card];
      const isNew = S.prevHand.length && !S.prevHand.includes(card);
      const labels = [cardName(card)];
      if (inMeld) labels.push(_("in meld {number}", { number: inMeld }));
      if (isNew) labels.push(_("just drawn"));
      const node = cardFace(card, {
        class: `card suit-${suitOf(card)}${inMeld ? " in-meld" : ""}${isNew ? " new-card" : ""}`,
        "aria-pressed": S.selected === card ? "true" : "false",
        "aria-label": labels.join(", "),
        tabindex: card === focusable ? "0" : "-1",
        draggable: "true",
        "data-index": String(idx + 1),
      });
      node.style.setProperty("--tilt", `${((idx - (hand.length - 1) / 2) * 1.1).toFixed(2)}deg`);
      if (inMeld) node.append(el("span", { class: "tag", "aria-hidden": "true" }, _("M{number}", { number: inMeld })));
      node.addEventListener("click", () => clickCard(card));
      node.addEventListener("pointerdown", (ev) => touchDrag(ev, card, node));
      node.addEventListener("keydown", (ev) => handKey(ev, card, hand));
      node.addEventListener("dragstart", (ev) => {
        S.dragging = card;
        ev.dataTransfer.setData("text/plain", card);
        ev.dataTransfer.effectAllowed = "move";
        node.classList.add("dragging");
      });
      node.addEventListener("dragend", () => {
        S.dragging = null;
        node.classList.remove("dragging");
      });
      // dropped on another card of the hand: the dragged card goes to that place
      node.addEventListener("dragover", (ev) => {
        if (S.dragging && S.dragging !== card) ev.preventDefault();
      });
      node.addEventListener("drop", (ev) => {
        const moved = S.dragging || ev.dataTransfer.getData("text/plain");
        if (!moved || moved === card) return;
        ev.preventDefault();
        ev.stopPropagation();
        moveCard(moved, displayHand().indexOf(card));
      });
      box.append(node);
    });
    if (!hand.length) box.append(el("p", {}, o.phase === "deal" ? "" : _("You hold no cards this hand.")));
    if (S.table && S.table.seats[S.seat]) fill($("you-badges"), seatBadges(S.seat));
    $("hand-title").textContent = watching() ? _("{name}'s hand (you are watching)", { name: name(S.seat) }) : _("Your hand");
    const dw = o.deadwood;
    $("deadwood").textContent = dw === undefined ? "" : _("Deadwood: {points}", { points: dw });
    const melds = $("melds");
    clear(melds);
    if ((o.melds || []).length) {
      melds.append(_("Melds:"), " ");
      o.melds.forEach((m, i) => melds.append(el("span", { class: "meld-list" }, _("M{number}", { number: i + 1 }), " ", minis(m), " ")));
    }
    const sortBtn = $("sort-toggle");
    sortBtn.textContent = prefs.sort === "rank" || handOrder() ? _("Sort by suit") : _("Sort by rank");
    sortBtn.setAttribute("aria-pressed", "false");
  }

  /** Dragging by touch (HTML drag and drop serves the mouse only): a finger moves a card onto
   * another card of the hand (it takes that place, the order is kept) or onto the discard pile (it
   * is discarded, where that is legal). */
  function touchDrag(ev, card, node) {
    if (ev.pointerType !== "touch" && ev.pointerType !== "pen") return;
    const start = { x: ev.clientX, y: ev.clientY };
    let moving = false;
    S.drag = { stale: false, since: Date.now() };
    const redrawIfStale = () => {
      const stale = S.drag && S.drag.stale;
      S.drag = null;
      if (stale && S.obs) renderHand();
    };
    const move = (e) => {
      if (e.pointerId !== ev.pointerId) return;
      const dx = e.clientX - start.x;
      const dy = e.clientY - start.y;
      if (!moving && Math.hypot(dx, dy) < 10) return;
      moving = true;
      node.classList.add("dragging");
      node.style.pointerEvents = "none"; // so that what is under the finger can be found
      node.style.transform = `translate(${dx}px, ${dy}px)`;
      $("pile") && $("pile").classList.toggle("drop-ok", !!document.elementFromPoint(e.clientX, e.clientY)?.closest("#pile") && can(`discard ${card}`));
    };
    const end = (e) => {
      if (e.type !== "blur" && e.pointerId !== ev.pointerId) return;
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", end);
      document.removeEventListener("pointercancel", end);
      window.removeEventListener("blur", end);
      if (!moving) {
        redrawIfStale();
        return;
      }
      // What is under the finger, looked for while the dragged card still lets it through: once its
      // transform is reset it glides back (a transition), and on its way it would be found itself.
      const dropped = e.type !== "pointercancel" && e.type !== "blur";
      const under = dropped ? document.elementFromPoint(e.clientX, e.clientY) : null;
      node.classList.remove("dragging");
      node.style.transform = "";
      node.style.pointerEvents = "";
      if ($("pile")) $("pile").classList.remove("drop-ok");
      S.dragEnded = Date.now(); // the click that may follow a drag does not choose the card
      if (!dropped) {
        redrawIfStale();
        return;
      }
      const target = under && under.closest("#hand .card");
      redrawIfStale();
      if (target && target.dataset.card !== card) moveCard(card, displayHand().indexOf(target.dataset.card));
      else if (under && under.closest("#pile") && can(`discard ${card}`)) act(`discard ${card}`);
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", end);
    document.addEventListener("pointercancel", end);
    window.addEventListener("blur", end); // the page left mid-drag: the drag ends, nothing played
  }

  function clickCard(card) {
    if (S.dragEnded && Date.now() - S.dragEnded < 400) return; // the end of a drag, not a tap
    const o = S.obs;
    if (S.selected === card && o.to_act && can(`discard ${card}`)) {
      S.selected = null;
      act(`discard ${card}`);
      return;
    }
    S.selected = S.selected === card ? null : card;
    renderHand();
    renderActions();
    const node = document.querySelector(`#hand .card[data-card="${card}"]`);
    if (node) node.focus({ preventScroll: true });
  }

  function handKey(ev, card, hand) {
    const i = hand.indexOf(card);
    if (ev.shiftKey && (ev.key === "ArrowLeft" || ev.key === "ArrowRight")) {
      // Shift+arrow moves the card within the hand (the order is kept)
      ev.preventDefault();
      ev.stopPropagation();
      moveCard(card, i + (ev.key === "ArrowLeft" ? -1 : 1));
      return;
    }
    let j = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(hand.length - 1, i + 1);
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = hand.length - 1;
    if (j === null) return;
    ev.preventDefault();
    const nodes = document.querySelectorAll("#hand .card");
    nodes.forEach((n, k) => n.setAttribute("tabindex", k === j ? "0" : "-1"));
    nodes[j].focus({ preventScroll: true });
  }

  function renderActions() {
    const box = clear($("actions"));
    const note = clear($("knock-note"));
    const o = S.obs;
    const t = S.table;
    const L = legal();
    const btn = (action, cls, id) =>
      el("button", { type: "button", class: cls || "", id: id || null, "data-action": action, onclick: () => act(action) }, actionLabel(action));
    if (S.arrangements && o.to_act) return renderArrangements(box);
    if (o.game_over) {
      box.append(el("button", { type: "button", class: "primary", id: "new-game", onclick: () => ((S.away = true), show("lobby")) }, _("New game")));
      box.append(el("button", { type: "button", id: "replay-game", onclick: () => send({ type: "replay" }) }, _("Replay this game")));
    } else if (o.phase === "deal") {
      const me = t.seats[S.seat];
      const waiting = (t.waiting_for || []).length > 0;
      const label = o.hand_number === 0 ? _("Deal the first hand") : _("Deal hand {number}", { number: o.hand_number + 1 });
      const people = t.seats.filter((s) => s.kind === "person" || s.kind === "open").length;
      if (people > 1 && me && me.ready) {
        box.append(el("span", {}, _("You are ready; waiting for the others…")));
      } else {
        box.append(
          el(
            "button",
            { type: "button", class: "primary", id: "deal", disabled: waiting, onclick: () => send({ type: "deal" }) },
            people > 1 ? _("{label} (ready)", { label }) : label,
          ),
        );
      }
    } else if (o.to_act) {
      for (const a of L) {
        if (a === "draw" || a === "take" || a === "pass") box.append(btn(a, a === "draw" ? "primary" : "", `act-${a}`));
      }
      if (o.phase === "opening") {
        for (const a of L) if (a === "knock" || a === "gin") box.append(btn(a, a, `act-${a}`));
      }
      if (o.phase === "discard") {
        const sel = S.selected;
        if (sel) {
          if (can(`discard ${sel}`)) box.append(btn(`discard ${sel}`, "primary", "act-discard"));
          if (can(`knock ${sel}`)) box.append(btn(`knock ${sel}`, "knock", "act-knock"));
          if (can(`gin ${sel}`)) box.append(btn(`gin ${sel}`, "gin", "act-gin"));
          if (!can(`discard ${sel}`) && !can(`knock ${sel}`) && !can(`gin ${sel}`)) {
            box.append(el("span", {}, _("{card} cannot be discarded now (it was just taken).", { card: `${cardShort(sel)} (${sel})` })));
          }
        } else {
          box.append(el("span", {}, _("Choose a card to discard.")));
        }
        if (can("gin")) box.append(btn("gin", "gin", "act-big-gin"));
        const gins = L.filter((a) => a.startsWith("gin ")).map((a) => a.split(" ")[1]);
        const knocks = L.filter((a) => a.startsWith("knock ")).map((a) => a.split(" ")[1]);
        if (gins.length) note.append(_("Gin! Discard one of these to go gin:"), " ", minis(gins), " ");
        if (knocks.length) note.append(_("You may knock by discarding one of these:"), " ", minis(knocks));
      }
    }
    const r = roles();
    const sitterTurn = r && r.sitter === S.seat && o.current_player === r.captain;
    if (t.hints && !o.game_over && o.phase !== "deal" && (o.to_act || sitterTurn)) {
      box.append(el("button", { type: "button", id: "hint", onclick: () => send({ type: "hint" }) }, _("Hint")));
    }
    if (t.undo) {
      // against the computer: back to your previous decision (the game is marked as played with takebacks)
      box.append(el("button", { type: "button", id: "undo", title: _("Take back your last decision (U)"), onclick: () => send({ type: "undo" }) }, _("Undo")));
    }
    if (t.takebacks) note.append(el("span", { class: "takebacks", id: "takebacks" }, " ", _("Takebacks this game: {n}.", { n: t.takebacks })));
  }

  function renderHint() {
    const box = $("hint-box");
    const h = S.hint;
    if (!h || !S.obs) {
      box.hidden = true;
      return;
    }
    const list = el("ol", { class: "ranked" });
    const ranked = h.ranked_words || h.ranked || [];
    const signed = (v) => `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(v).toFixed(1)}`;
    ranked.slice(0, 5).forEach(([a, v]) => list.append(el("li", {}, ...richText(a), " ", el("span", { class: "value" }, `(${signed(v)})`))));
    fill(
      box,
      el("strong", {}, _("Hint:")), " ",
      ...richText(h.best_words || h.best),
      h.why ? el("p", {}, ...richText(h.why)) : null,
      ranked.length
        ? el("details", {}, el("summary", {}, _("Options ranked")), list, h.unit ? el("p", { class: "unit" }, _("The figures: {unit}.", { unit: h.unit })) : null)
        : null,
    );
    box.hidden = false;
  }

  function renderSitter() {
    const box = $("sitter-box");
    const o = S.obs;
    const r = roles();
    if (!r || r.sitter !== S.seat || !o.captain_hand || o.phase === "deal") {
      box.hidden = true;
      return;
    }
    const hand = sortedHand(o.captain_hand);
    const cards = el("div", { class: "hand", role: "group", "aria-label": _("The captain's hand") });
    hand.forEach((c) => {
      const node = cardFace(c, {
        "aria-pressed": S.sitterPick === c ? "true" : "false",
        "aria-label": _("{card} (captain's card)", { card: cardName(c) }),
        onclick: () => {
          S.sitterPick = S.sitterPick === c ? null : c;
          renderSitter();
        },
      });
      cards.append(node);
    });
    const captainToAct = o.current_player === r.captain;
    const noteInput = el("input", { id: "suggest-note", maxlength: "200", "aria-label": _("A note for the captain (optional)"), placeholder: _("A note (optional)") });
    const suggest = (action) => send({ type: "suggest", action, text: noteInput.value || "" });
    const buttons = el("div", { class: "actions" });
    if (captainToAct) {
      const pick = S.sitterPick;
      if (o.phase === "upcard") buttons.append(sbtn("take", suggest), sbtn("pass", suggest));
      else if (o.phase === "draw") buttons.append(sbtn("draw", suggest), sbtn("take", suggest));
      else if (pick) buttons.append(sbtn(`discard ${pick}`, suggest), sbtn(`knock ${pick}`, suggest), sbtn(`gin ${pick}`, suggest));
      else buttons.append(el("span", {}, _("Choose one of the captain's cards to suggest a discard.")));
    } else buttons.append(el("span", {}, _("You can suggest when the captain is to act.")));
    fill(
      box,
      el("h3", {}, _("You are the sitter: the captain's hand")),
      cards,
      el("p", {}, _("The captain decides; your suggestion is shown to the captain only.")),
      noteInput,
      buttons,
      S.table.suggestion ? el("p", {}, _("Your suggestion:"), " ", actionLabel(S.table.suggestion.action)) : null,
    );
    box.hidden = false;
  }
  function sbtn(action, fn) {
    return el("button", { type: "button", class: "small", "data-suggest": action, onclick: () => fn(action) }, _("Suggest: {action}", { action: actionLabel(action) }));
  }

  function renderSuggestion() {
    const box = $("suggestion-box");
    const r = roles();
    const sug = S.table && S.table.suggestion;
    if (!r || !sug || r.captain !== S.seat) {
      box.hidden = true;
      return;
    }
    fill(
      box,
      el("strong", {}, _("{name} (sitter) suggests:", { name: name(sug.from) })),
      " ",
      actionLabel(sug.action),
      sug.text ? el("span", {}, " — ", sug.text) : null,
      " ",
      el("span", {}, _("You decide.")),
    );
    box.hidden = false;
  }

  /** knocker_arrangement=choose: the melds the player may spread with the knock or gin chosen. */
  function renderArrangements(box) {
    const a = S.arrangements;
    box.append(el("p", { id: "arrangements-title", class: "arrangements-title" }, _("{action}: choose the melds to spread", { action: actionLabel(a.action) })));
    a.choices.forEach((c, k) => {
      box.append(
        el(
          "button",
          { type: "button", class: "arrangement", id: `arrangement-${k}`, "data-action": c.action, onclick: () => act(c.action) },
          c.melds.map((m) => el("span", { class: "group" }, m.map((card) => mini(card)))),
          c.unmatched.length ? el("span", { class: "group dead" }, _("deadwood:"), " ", minis(c.unmatched)) : null,
          " ",
          _("(deadwood {n})", { n: c.deadwood }),
        ),
      );
    });
    box.append(
      el("button", { type: "button", id: "arrangement-cancel", onclick: () => ((S.arrangements = null), renderGame()) }, _("Cancel")),
    );
  }

  function renderResult() {
    const box = $("result");
    const o = S.obs;
    const res = o.result;
    if (!res && o.phase === "deal" && S.table && S.table.cut) {
      fill(box, renderCut(S.table.cut));
      box.hidden = false;
      return;
    }
    if (!res || (o.phase !== "deal" && o.phase !== "over")) {
      clear(box).hidden = true;
      return;
    }
    clear(box);
    const titles = {
      gin: LANG.results.gin || "gin",
      "big-gin": LANG.results["big-gin"] || "big gin",
      knock: _("a knock"),
      undercut: _("an undercut"),
      joker: _("the joker"),
      draw: _("a void hand (the wall)"),
      redeal: _("a redeal"),
    };
    box.append(el("h3", { id: "result-title" }, _("Hand {number}: {result}", { number: o.hand_number, result: titles[res.result] || res.result })));
    if (res.knocker !== null && res.knocker !== undefined && (res.knocker_melds || []).length + (res.knocker_unmatched || []).length) {
      const kn = isSolo() ? _("You") : name(res.knocker);
      box.append(spread(_("{name}: melds", { name: kn }), res.knocker_melds, res.knocker_unmatched, []));
      if (!isSolo()) {
        const defender = defenderSeat();
        const dn = defender === undefined ? _("Defender") : name(defender);
        box.append(spread(_("{name}: melds", { name: dn }), res.defender_melds, res.defender_unmatched, res.laid_off));
        if ((res.laid_off || []).length) {
          box.append(el("p", { class: "laid-note" }, _("{name} laid off these cards on the knocker's melds, so they do not count as deadwood:", { name: dn }), " ", minis(res.laid_off)));
        }
      }
    }
    const lays = (S.table && S.table.layoffs) || [];
    if (lays.length && !watching()) {
      // you defended a knock: your layoffs were chosen for you (the best); lay off your own instead
      const explicit = S.obs.history ? S.obs.history.some((h) => h.action.startsWith("layoff")) : false;
      box.append(
        el(
          "div",
          { class: "layoff-choice", id: "layoff-choice" },
          el("p", {}, explicit ? _("Lay off another card:") : _("Your layoffs were made for you (the most deadwood saved). Lay off your own choice instead, one card at a time:")),
          ...lays.map((c) => el("button", { type: "button", class: "small", id: `layoff-${c}`, "data-action": `layoff ${c}`, onclick: () => act(`layoff ${c}`) }, _("Lay off"), " ", mini(c))),
        ),
      );
    }
    if (res.result === "redeal" || res.result === "joker") {
      // a redeal: the joker was dealt among the ten (the deal with the joker in it); the joker
      // turned up in play: the hand it ended, beside it
      const label = res.result === "redeal" ? _("The deal:") : _("The hand when the joker came:");
      box.append(el("div", { class: "spread", id: "dealt-joker" }, el("span", { class: "lbl" }, label), ...(o.hand || []).map((c) => mini(c)), jokerFace()));
    }
    if (res.counted_cards && res.counted_cards.length) {
      box.append(el("p", {}, _("Cards turned before the joker ({n}):", { n: res.counted }), " ", minis(res.counted_cards)));
    }
    const ex = el("ul", { class: "explain" });
    (res.explanation || []).forEach((line) => ex.append(el("li", {}, ...richText(line))));
    box.append(ex);
    const pts = (res.points || []).map((p, i) => `${name(i)} ${p}`).join(" · ");
    box.append(el("p", {}, el("strong", {}, _("Points this hand:")), " ", pts));
    if (o.game_over) {
      const ft = o.final_totals || o.totals;
      box.append(el("p", { id: "final" }, el("strong", {}, _("Final totals with bonuses:")), " ", ft.map((p, i) => `${name(i)} ${p}`).join(" · ")));
      const parts = (S.table && S.table.final_parts) || [];
      if (parts.some((seat) => seat.length > 1)) {
        // every part of each final total on its own line, as the server's scoring adds them up
        const list = el("div", { class: "final-parts", id: "final-parts" });
        parts.forEach((seat, i) => {
          const tbl = el("table", { class: "sheet parts" }, el("caption", {}, `${name(i)}: ${ft[i]}`));
          const body = el("tbody", {});
          seat.forEach(([what, pts]) => body.append(el("tr", {}, el("th", { scope: "row" }, what), el("td", {}, String(pts)))));
          tbl.append(body, el("tfoot", {}, el("tr", {}, el("th", { scope: "row" }, _("Final total")), el("td", {}, String(ft[i])))));
          list.append(tbl);
        });
        box.append(list);
      }
    }
    const t = S.table;
    if (o.game_over && t && "analysis" in t) {
      // a finished solitaire: the same analysis as the terminal app's, worked out by the server
      const a = t.analysis;
      const sec = el("div", { class: "analysis", id: "analysis", role: "status", "aria-live": "polite" });
      if (!a) sec.append(el("p", {}, _("Analysing your play…")));
      else {
        if (a.accuracy !== null && a.accuracy !== undefined) {
          const pct = a.accuracy <= 1 ? a.accuracy * 100 : a.accuracy;
          sec.append(el("p", {}, el("strong", {}, _("Accuracy:")), " ", el("span", { id: "accuracy" }, `${pct.toFixed(0)}%`), " ", _("(kept in your statistics)")));
        }
        const lines = el("ul", { class: "explain" });
        (a.summary || []).forEach((line) => lines.append(el("li", {}, ...richText(line))));
        sec.append(lines);
      }
      box.append(sec);
    }
    box.hidden = false;
  }
  /** The cut for the first deal (rule 1.2: the lower card deals) or for three's roles (rule 2.1:
   * the highest card takes the box, the next captains, the lowest sits out); ties cut again. */
  function renderCut(cut) {
    const sec = el("div", { id: "cut" }, el("h3", { id: "result-title" }, _("The cut")));
    cut.rounds.forEach((round, k) => {
      sec.append(
        el(
          "p",
          { class: "spread" },
          el("span", { class: "lbl" }, k ? _("Cut again (a tie):") : _("Each player cuts:")),
          ...round.map(([seat, card]) => el("span", { class: "group", "data-seat": String(seat) }, `${name(seat)} `, mini(card))),
        ),
      );
    });
    if (cut.roles) {
      const [box, captain, sitter] = cut.roles;
      sec.append(
        el("p", { id: "cut-outcome" }, _("Highest card: in the box, {box}; captain, {captain}; sitting out the first hand, {sitter}.", { box: name(box), captain: name(captain), sitter: name(sitter) })),
      );
    } else {
      const text = cut.dealer === S.seat && !watching() ? _("The lower card deals: you deal the first hand.") : _("The lower card deals: {name} deals the first hand.", { name: name(cut.dealer) });
      sec.append(el("p", { id: "cut-outcome" }, text));
    }
    return sec;
  }
  function spread(title, melds, unmatched, laid) {
    const row = el("div", { class: "spread" }, el("span", { class: "lbl" }, title));
    (melds || []).forEach((m) => row.append(el("span", { class: "group" }, m.map((c) => mini(c, null, true)))));
    if ((laid || []).length) row.append(el("span", { class: "group laid", title: _("laid off") }, el("span", { class: "lbl" }, _("laid off:")), " ", laid.map((c) => mini(c, null, true))));
    row.append(el("span", { class: "lbl" }, _("deadwood:")), " ", (unmatched || []).length ? el("span", { class: "mini-cards" }, unmatched.map((c) => mini(c, null, true))) : _("none"));
    return row;
  }

  function renderSheet() {
    const box = clear($("sheet"));
    const o = S.obs;
    const t = S.table;
    const n = t.seats.length;
    const head = el("tr", {}, el("th", { scope: "col" }, _("Hand")), ...t.seats.map((s, i) => el("th", { scope: "col" }, name(i))));
    const body = el("tbody", {});
    (t.sheet || []).forEach((h) => {
      body.append(el("tr", {}, el("th", { scope: "row" }, `${h.hand} ${(LANG.code !== "en" && LANG.results[h.result]) || h.result}`), ...h.points.map((p) => el("td", {}, p ? String(p) : "–"))));
    });
    const foot = el(
      "tfoot",
      {},
      el("tr", {}, el("th", { scope: "row" }, _("Total")), ...o.totals.map((p) => el("td", {}, String(p)))),
      el("tr", {}, el("th", { scope: "row" }, _("Hands won")), ...o.hands_won.map((p) => el("td", {}, String(p)))),
    );
    if (o.boxes) {
      foot.append(el("tr", {}, el("th", { scope: "row" }, _("Boxes")), ...o.boxes.map((p) => el("td", {}, String(p)))));
    }
    if (o.game_over && o.final_totals) {
      foot.append(el("tr", {}, el("th", { scope: "row" }, _("Final with bonuses")), ...o.final_totals.map((p) => el("td", {}, String(p)))));
    }
    box.append(el("div", { class: "sheet-wrap" }, el("table", { class: `sheet cols-${n}`, id: "sheet-table" }, el("caption", { class: "visually-hidden" }, _("Points of each hand")), el("thead", {}, head), body, foot)));
    if (o.hollywood) {
      const hw = o.hollywood;
      const hhead = el("tr", {}, el("th", { scope: "col" }, _("Game")), ...t.seats.slice(0, n).map((s, i) => el("th", { scope: "col" }, (t.shown_names && t.shown_names[i]) || s.name)), el("th", { scope: "col" }, _("State")));
      const hbody = el("tbody", {});
      hw.games.forEach((g, k) => {
        hbody.append(
          el("tr", {}, el("th", { scope: "row" }, _("Game {number}", { number: k + 1 })), ...g.map((p) => el("td", {}, p === null ? "–" : String(p))), el("td", {}, hw.closed[k] ? _("closed") : _("open"))),
        );
      });
      box.append(el("h4", {}, _("Hollywood: three games")), el("div", { class: "sheet-wrap" }, el("table", { class: "sheet", id: "hollywood-table" }, el("thead", {}, hhead), hbody)));
    }
  }

  async function sha256hex(text) {
    if (!(window.crypto && crypto.subtle)) return null;
    const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return Array.from(new Uint8Array(buf))
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("");
  }

  function renderFair() {
    const box = clear($("fair"));
    const o = S.obs;
    const seen = commitments(S.game);
    if (o.commitment) {
      const before = seen[String(o.hand_number)];
      box.append(
        el("p", {}, _("Hand {number} was dealt from the seed committed to before the deal:", { number: o.hand_number })),
        el("code", { class: "hash", id: "commitment" }, o.commitment),
      );
      if (before && before !== o.commitment) box.append(el("p", { class: "ok" }, _("Warning: this is not the commitment shown before the deal!")));
      else if (before) box.append(el("p", {}, _("Same as shown before the deal.")));
    }
    if (o.revealed_seed && o.commitment) {
      const key = `${S.game}:${o.hand_number}`;
      const out = el("p", { id: "verify" }, _("Checking the seed…"));
      box.append(el("p", {}, _("The seed, revealed after the hand:")), el("code", { class: "hash", id: "revealed-seed" }, o.revealed_seed), out);
      const text = `ginrummy-deal/1:${o.hand_number}:${o.revealed_seed}`;
      const finish = (digest) => {
        if (digest === null) out.textContent = _("Check it with: ginrummy verify (SHA-256 of {text}…).", { text: text.slice(0, 24) });
        else if (digest === o.commitment) out.textContent = _("✓ Verified: SHA-256 of the seed matches the commitment.");
        else out.textContent = _("✗ The seed does not match the commitment!");
      };
      if (key in S.verified) finish(S.verified[key]);
      else
        sha256hex(text).then((d) => {
          S.verified[key] = d;
          if (S.obs === o) finish(d);
        });
    }
    if (o.next_commitment) {
      box.append(el("p", {}, _("The next deal (hand {number}) is committed to:", { number: o.hand_number + 1 })), el("code", { class: "hash", id: "next-commitment" }, o.next_commitment));
    }
    if (!box.firstChild) box.append(el("p", {}, _("Each deal's seed is committed to before the deal and revealed after it.")));
  }

  function renderLog() {
    const box = clear($("log"));
    box.parentElement.hidden = !("history" in S.obs) && isSolo(); // the solitaires have no table talk
    if (S.log) {
      // the same words as the terminal and plain mode, built by the server for this seat
      for (const line of S.log) box.append(el("li", {}, ...richText(line)));
    } else {
      for (const h of S.obs.history || []) {
        box.append(el("li", {}, `${h.seat === null ? "" : name(h.seat) + ": "}`, ...richText(describe(h.action, true))));
      }
    }
    box.scrollTop = box.scrollHeight; // the newest move in view
  }

  // ---------------------------------------------------------------- lobby
  async function loadInfo() {
    if (S.info) return S.info;
    const r = await fetch(`/api/info?${langQuery()}`);
    S.info = await r.json();
    return S.info;
  }

  function fillVariants(info) {
    for (const [id, list] of [
      ["new-variant", Object.keys(info.variants)],
      ["table-variant", info.table_variants],
    ]) {
      const sel = $(id);
      if (sel.options.length) continue;
      for (const v of list) sel.append(el("option", { value: v }, info.variants[v].long_title || v));
    }
  }

  async function renderLobby() {
    const info = await loadInfo().catch(() => null);
    if (info) {
      const first = !$("new-variant").options.length;
      fillVariants(info);
      if (first) restoreSettings(info);
      fillOpponents(info);
      fillOptions(info);
      fillTableSeats(info);
    }
    renderCurrent();
    loadSaved(info);
    loadFinished(info);
  }

  /** The lobby as the player left it last time (remembered in localStorage). */
  function restoreSettings(info) {
    const s = settings();
    if (s.variant && info.variants[s.variant]) $("new-variant").value = s.variant;
    if (s.tableVariant && info.table_variants.includes(s.tableVariant)) $("table-variant").value = s.tableVariant;
    if (typeof s.name === "string") $("new-name").value = s.name;
    if (typeof s.tableName === "string") $("table-name").value = s.tableName;
    $("new-watch").checked = !!s.watch;
    $("table-hints").checked = !!s.tableHints;
  }

  /** The computer players of the game chosen: the levels first (with what each does), then the
   * others; watching, the players that can take every seat (the solitaires' too). */
  function fillOpponents(info) {
    const v = $("new-variant").value;
    const f = info.variants[v];
    const watch = $("new-watch").checked;
    const sel = clear($("new-opponent"));
    const agents = watch ? f.players : f.agents;
    $("new-opponent").hidden = !agents.length;
    $("new-opponent-label").hidden = !agents.length;
    $("new-opponent-label").textContent = watch ? _("Computer player (every seat)") : _("Computer player");
    const saved = settings().opponents[watch ? `${v}:watch` : v];
    const pick = agents.includes(saved) ? saved : watch ? f.default_player : f.default_agent;
    const option = (a) => el("option", { value: a, selected: a === pick }, agentLabel(a));
    const levels = (f.levels || []).map((l) => l.name).filter((n) => agents.includes(n));
    const others = agents.filter((a) => !levels.includes(a));
    if (levels.length) sel.append(el("optgroup", { label: _("Levels") }, levels.map(option)));
    if (others.length && levels.length) sel.append(el("optgroup", { label: _("Other computer players") }, others.map(option)));
    else others.forEach((a) => sel.append(option(a)));
    describeOpponent(info);
  }
  function describeOpponent(info) {
    const f = info.variants[$("new-variant").value];
    const level = (f.levels || []).find((l) => l.name === $("new-opponent").value);
    $("new-opponent-about").textContent = level && !$("new-opponent").hidden ? _("{player}: {description}.", { player: agentLabel(level.name), description: level.description }) : "";
  }

  function agentLabel(a) {
    const label = LANG.agents[a] || a;
    return label.replace(/^(\P{L}*)(\p{L})/u, (_m, before, first) => before + first.toUpperCase()); // its first letter
  }

  function fillOptions(info) {
    const v = $("new-variant").value;
    const box = clear($("new-options"));
    for (const opt of info.variants[v].options) {
      const id = `opt-${opt.name}`;
      let input;
      if (typeof opt.default === "boolean") {
        input = el("input", { type: "checkbox", id, "data-opt": opt.name, checked: opt.default });
      } else if (opt.choices && opt.choices.length) {
        input = el("select", { id, "data-opt": opt.name }, opt.choices.map((c, k) => el("option", { value: c, selected: c === opt.default }, (opt.choice_labels || [])[k] || String(c))));
      } else {
        input = el("input", { type: "number", id, "data-opt": opt.name, value: String(opt.default), min: "0", step: "1" });
      }
      const saved = (settings().options[v] || {})[opt.name]; // the value chosen last time
      if (saved !== undefined) {
        if (input.type === "checkbox") input.checked = !!saved;
        else if (input.tagName === "SELECT" ? opt.choices.includes(saved) : true) input.value = String(saved);
      }
      box.append(el("div", { class: "opt" }, el("label", { for: id }, opt.label || opt.name), input, el("small", {}, opt.doc)));
    }
  }

  function readOptions(info) {
    const v = $("new-variant").value;
    const out = {};
    for (const opt of info.variants[v].options) {
      const input = document.querySelector(`[data-opt="${opt.name}"]`);
      if (!input) continue;
      let value;
      if (input.type === "checkbox") value = input.checked;
      else if (input.type === "number") value = parseInt(input.value, 10);
      else value = input.value;
      if (value !== opt.default && !(typeof value === "number" && Number.isNaN(value))) out[opt.name] = value;
    }
    return out;
  }

  function fillTableSeats(info) {
    const v = $("table-variant").value;
    const box = clear($("table-seats"));
    const n = info.variants[v].seats;
    for (let i = 2; i <= n; i++) {
      const id = `table-seat-${i}`;
      const sel = el("select", { id, "data-seat": String(i) }, el("option", { value: "person" }, _("A friend (invite)")));
      for (const a of info.variants[v].agents) sel.append(el("option", { value: a }, _("Computer: {player}", { player: agentLabel(a) })));
      box.append(el("label", { for: id }, _("Seat {number}", { number: i })), sel);
    }
  }

  function renderCurrent() {
    const box = clear($("current-box"));
    const all = seats();
    const ids = Object.keys(all).sort((a, b) => (all[b].at || 0) - (all[a].at || 0)).slice(0, 8);
    if (!ids.length) {
      box.append(el("p", {}, _("Games you play in this browser appear here.")));
      return;
    }
    const list = el("ul", { class: "saved" });
    for (const id of ids) {
      const g = all[id];
      list.append(
        el(
          "li",
          {},
          // the title is worded outside the template literal: Babel's extractor does not look inside one
          el("span", {}, `${savedTitle(g)} · ${new Date(g.at).toLocaleString(LANG.code === "xx" ? "en" : LANG.code)}`),
          el(
            "span",
            {},
            el("button", { type: "button", class: "small", "data-continue": id, onclick: () => continueGame(id) }, _("Continue")),
            " ",
            el("button", { type: "button", class: "small", "aria-label": _("Forget the game of {when}", { when: new Date(g.at).toLocaleString(LANG.code === "xx" ? "en" : LANG.code) }), onclick: () => { forgetSeat(id); renderCurrent(); } }, _("Forget")),
          ),
        ),
      );
    }
    box.append(list);
  }

  async function loadSaved(info) {
    const list = clear($("saved-list"));
    if (!info || !info.owner) return;
    let data;
    try {
      const r = await fetch(`/api/saved?${langQuery()}`);
      if (!r.ok) return;
      data = await r.json();
    } catch (e) {
      return;
    }
    const mine = seats();
    const games = data.games.filter((g) => !mine[g.id]);
    if (!games.length) return;
    list.append(el("li", {}, el("strong", {}, _("Saved on this computer (also from the terminal app)"))));
    for (const g of games) {
      list.append(
        el(
          "li",
          {},
          el("span", {}, _("{game}: {players} · hand {number} · {totals}", { game: variantTitle(g.variant), players: g.players.join(_(" v ")), number: g.hand_number, totals: g.totals.join("–") })),
          el("button", { type: "button", class: "small", onclick: () => send({ type: "resume", game: g.id }) }, _("Resume")),
          " ",
          el(
            "button",
            {
              type: "button",
              class: "small",
              "data-delete": g.id,
              "aria-label": _("Delete the saved game {id}", { id: g.id }),
              onclick: async (ev) => {
                const b = ev.currentTarget;
                if (b.dataset.confirm !== "1") {
                  b.dataset.confirm = "1";
                  b.textContent = _("Really delete?");
                  return;
                }
                const r = await fetch(`/api/saved/${encodeURIComponent(g.id)}?${langQuery()}`, { method: "DELETE" });
                const body = await r.json().catch(() => ({}));
                flash(r.ok ? _("The saved game was deleted.") : body.error || _("Could not delete the game."));
                loadSaved(info);
              },
            },
            _("Delete"),
          ),
        ),
      );
    }
  }

  function continueGame(id) {
    const g = seats()[id];
    if (!g) return;
    S.game = id;
    S.token = g.token;
    S.obs = null;
    S.away = false;
    store("ginrummy.current", id);
    send({ type: "hello", game: id, token: g.token });
  }

  // ---------------------------------------------------------------- the replay viewer
  /** A finished game or a record file step by step, forwards and back: the positions come from the
   * server (every deal and action of the record, each seat's cards face up: the game is over). */
  const RECORD_LIMIT = 256 * 1024; // the server's MAX_RECORD_BYTES: a larger file is not sent
  function openReplay(data) {
    if (!data || !(data.frames || []).length) return;
    S.replay = { data, i: 0 };
    S.away = true; // the table's own messages do not pull the player back to the game
    const slider = $("replay-slider");
    slider.max = String(data.frames.length - 1);
    show("replay");
    $("replay-next").focus({ preventScroll: true });
  }
  function replayStep(to) {
    const r = S.replay;
    if (!r) return;
    r.i = Math.max(0, Math.min(r.data.frames.length - 1, to));
    renderReplay();
  }
  /** The positions where a hand is dealt. */
  function replayDeals(frames) {
    return frames.map((f, k) => (f.hand && (k === 0 || frames[k - 1].hand !== f.hand) ? k : -1)).filter((k) => k >= 0);
  }
  /** To the deal of the next hand (by 1), or back to this hand's deal, then the previous one's (by -1). */
  function replayHand(by) {
    const r = S.replay;
    if (!r) return;
    const deals = replayDeals(r.data.frames);
    if (by > 0) {
      const later = deals.filter((k) => k > r.i);
      replayStep(later.length ? later[0] : r.data.frames.length - 1);
    } else {
      const earlier = deals.filter((k) => k < r.i);
      replayStep(earlier.length ? earlier[earlier.length - 1] : 0);
    }
  }
  function renderReplay() {
    const r = S.replay;
    $("replay-viewer").hidden = !r;
    if (!r) {
      $("replay-title").textContent = _("Replay");
      return;
    }
    const { data, i } = r;
    const f = data.frames[i];
    const n = data.frames.length;
    const who = (seat) => data.players[seat] || _("Seat {number}", { number: seat + 1 });
    $("replay-title").textContent = _("Replay: {game} ({players})", { game: variantTitle(data.variant), players: data.players.join(_(" v ")) });
    fill($("replay-move"), ...richText(f.move));
    $("replay-pos").textContent = f.hand ? _("Step {step} of {last} · hand {number}", { step: i, last: n - 1, number: f.hand }) : _("Step {step} of {last}", { step: i, last: n - 1 });
    $("replay-slider").value = String(i);
    $("replay-first").disabled = $("replay-back").disabled = $("replay-hand-back").disabled = i === 0;
    $("replay-next").disabled = $("replay-last").disabled = $("replay-hand-next").disabled = i === n - 1;
    const board = clear($("replay-board"));
    f.hands.forEach((cards, seat) => {
      if (!cards.length && f.hand) return; // the Joker, or the sitter of a hand of three
      board.append(
        el(
          "div",
          { class: "replay-seat", "data-seat": String(seat) },
          el("div", { class: "who" }, who(seat), f.to_act === seat ? el("span", { class: "badge" }, _("to act")) : null, el("span", { class: "badge" }, _("total {points}", { points: f.totals[seat] }))),
          el("div", { class: "faceup", role: "group", "aria-label": _("Cards of {name}", { name: who(seat) }) }, sortedHand(cards).map((c) => cardFace(c, { button: false, class: `card small suit-${suitOf(c)}`, role: "img", "aria-label": cardName(c) }))),
        ),
      );
    });
    if (f.hand) {
      board.append(
        el(
          "p",
          { class: "replay-piles" },
          _("Stock: {stock} · discard pile: {pile}", { stock: f.stock, pile: f.pile }),
          f.top ? el("span", {}, " · ", _("top:"), " ", mini(f.top)) : null,
        ),
      );
    }
    if (f.result) {
      const ex = el("ul", { class: "explain" });
      (f.result.explanation || []).forEach((line) => ex.append(el("li", {}, ...richText(line))));
      board.append(ex);
    }
    if (i === n - 1 && data.truncated) board.append(el("p", { class: "note" }, _("A long record: its first {n} positions are shown.", { n })));
    if (i === n - 1 && data.final_totals) {
      board.append(el("p", { id: "replay-final" }, el("strong", {}, _("Final totals:")), " ", data.final_totals.map((p, k) => `${who(k)} ${p}`).join(" · ")));
    }
  }
  /** The replay page's form: a record file (or pasted text) sent to the server, which checks it
   * whole. A bad record gets one line under the form and changes nothing: the replay shown stays. */
  function recordError(text) {
    const e = $("record-error");
    e.textContent = text || "";
    e.hidden = !text;
  }
  async function recordSource() {
    const file = $("record-file").files[0];
    if (file) {
      if (file.size > RECORD_LIMIT) return { error: _("The file is larger than {size} KiB: too large for a record.", { size: RECORD_LIMIT / 1024 }) };
      return { body: await file.arrayBuffer() };
    }
    const text = $("record-text").value;
    if (!text.trim()) return { error: _("Choose a record file or paste a record first.") };
    const body = new TextEncoder().encode(text);
    if (body.length > RECORD_LIMIT) return { error: _("The record is larger than {size} KiB: too large to open here.", { size: RECORD_LIMIT / 1024 }) };
    return { body };
  }
  async function openRecord(index) {
    const source = index === undefined ? await recordSource() : S.recordBody;
    if (!source || source.error) {
      recordError(source ? source.error : _("Choose a record file or paste a record first."));
      return;
    }
    let data;
    try {
      const r = await fetch(`/api/replay?record=${index || 0}&${langQuery()}`, { method: "POST", headers: { "content-type": "text/plain;charset=utf-8" }, body: source.body });
      data = await r.json();
      if (!r.ok) throw new Error(data.error || String(r.status));
    } catch (e) {
      recordError(_("This record cannot be shown: {error}", { error: e.message }));
      return;
    }
    recordError("");
    S.recordBody = source;
    const choice = $("record-choice");
    clear(choice);
    for (let k = 0; k < data.records; k++) choice.append(el("option", { value: String(k) }, _("record {i} of {n}", { i: k + 1, n: data.records })));
    choice.value = String(data.record);
    choice.hidden = $("record-choice-label").hidden = data.records < 2;
    openReplay(data);
  }
  async function replayFinished(id) {
    try {
      const r = await fetch(`/api/replay/${encodeURIComponent(id)}?${langQuery()}`);
      const data = await r.json();
      if (!r.ok) throw new Error(data.error || _("no replay"));
      openReplay(data);
    } catch (e) {
      flash(_("The replay cannot be shown: {error}", { error: e.message }));
    }
  }
  async function loadFinished(info) {
    const list = clear($("finished-list"));
    if (!info || !info.owner) return;
    let data;
    try {
      const r = await fetch(`/api/history?${langQuery()}`);
      if (!r.ok) return;
      data = await r.json();
    } catch (e) {
      return;
    }
    if (!data.games.length) return;
    list.append(el("li", {}, el("strong", {}, _("Finished games: step through them again"))));
    for (const g of data.games.slice(0, 10)) {
      list.append(
        el(
          "li",
          {},
          el("span", {}, _("{game}: {players} · {totals}", { game: variantTitle(g.variant), players: g.players.join(_(" v ")), totals: g.final_totals.join("–") })),
          el("button", { type: "button", class: "small", "data-replay": g.id, "aria-label": _("Replay {players}, {totals}", { players: g.players.join(_(" v ")), totals: g.final_totals.join("–") }), onclick: () => replayFinished(g.id) }, _("Replay")),
        ),
      );
    }
  }

  // ---------------------------------------------------------------- statistics
  async function loadStats() {
    await loadInfo().catch(() => null);
    const box = clear($("stats"));
    box.append(el("p", {}, _("Loading…")));
    let data;
    try {
      const r = await fetch(`/api/stats?${langQuery()}`);
      if (r.status === 403) {
        fill(box, el("p", {}, _("Statistics are shown on the computer that runs the server.")));
        return;
      }
      data = await r.json();
    } catch (e) {
      fill(box, el("p", {}, _("Could not load the statistics.")));
      return;
    }
    clear(box);
    const variants = Object.keys(data.variants || {});
    if (!variants.length) {
      box.append(el("p", {}, _("No finished games yet. Finish a game and its figures appear here.")));
      return;
    }
    const grid = el("div", { class: "stats-grid" });
    for (const v of variants) {
      const s = data.variants[v];
      const hist = (data.history || {})[v] || [];
      const figs = el(
        "dl",
        { class: "stat-figures" },
        fig(_("Games"), s.games),
        fig(_("Wins"), s.wins),
        fig(_("Win rate"), `${Math.round(s.win_rate * 100)}%`),
        fig(_("Hands"), s.hands),
        fig(_("Points per hand"), s.points_per_hand.toFixed(2)),
        s.accuracy !== null && s.accuracy !== undefined ? fig(_("Accuracy"), `${Math.round(s.accuracy * 100)}%`) : null,
      );
      const panel = el("section", { class: "panel", "aria-labelledby": `stats-${v}` }, el("h3", { id: `stats-${v}` }, variantTitle(v)), figs);
      // gins, undercuts, streaks, best and worst, in the server's words (as the terminal and the command)
      if ((s.lines || []).length) panel.append(el("ul", { class: "stat-lines" }, ...s.lines.map((line) => el("li", {}, line))));
      for (const o of s.opponents || []) {
        panel.append(el("h4", {}, o.heading), el("ul", { class: "stat-lines" }, ...o.lines.map((line) => el("li", {}, line))));
      }
      panel.append(el("h4", {}, _("Running average: points per hand (yours minus your opponents')")), statChart(v, s));
      if (hist.length) {
        const margins = hist.map((g) => {
          const ft = g.final_totals || [];
          const mine = ft[g.player_seat] || 0;
          const best = Math.max(...ft.filter((_, i) => i !== g.player_seat), 0);
          return { value: mine - best, won: g.won };
        });
        panel.append(el("h4", {}, _("Each game: your final margin (won ▲ / lost ▼)")), barChart(margins, _("Final margins of the games: {n} played, {won} won", { n: margins.length, won: margins.filter((m) => m.won).length })));
      }
      if ((s.accuracy_history || []).length) {
        panel.append(
          el("h4", {}, _("Accuracy")),
          lineChart(s.accuracy_history.map((a) => a * 100), { label: _("Accuracy over the analysed games: {n}", { n: s.accuracy_history.length }), percent: true }),
        );
      }
      grid.append(panel);
    }
    box.append(grid);
  }
  /** The running-average chart of a variant: over all its games, or against the opponent (and so
   * the level) chosen above it; the charts come from the server (statwords.chart_choices), as in the terminal. */
  function statChart(v, s) {
    const charts = (s.charts || []).length ? s.charts : [{ key: "", label: _("all opponents"), values: s.running_average, games: s.games }];
    const box = el("div", { class: "stat-chart", id: `chart-${v}-box` });
    const draw = (k) => {
      const c = charts[k];
      box.dataset.chart = c.key;
      const n = c.values.length;
      const label = c.key ? _("Running average of points per hand, {who}, over the games played: {n}", { who: c.label, n }) : _("Running average of points per hand over the games played: {n}", { n });
      fill(box, lineChart(c.values, { label }));
    };
    draw(0);
    if (charts.length < 2) return box;
    const id = `chart-${v}`;
    const choice = el("select", { id, class: "stat-choice" }, charts.map((c, k) => el("option", { value: String(k) }, c.label)));
    choice.addEventListener("change", () => draw(Number(choice.value)));
    return el("div", {}, el("label", { for: id, class: "stat-choice-label" }, _("Opponent")), " ", choice, box);
  }
  function fig(label, value) {
    return el("div", {}, el("dt", {}, label), el("dd", {}, String(value)));
  }

  const NS = "http://www.w3.org/2000/svg";
  function svgEl(tag, attrs, text) {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function chartFrame(label, W, H) {
    const svg = svgEl("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label });
    svg.append(svgEl("title", {}, label));
    return svg;
  }
  function lineChart(values, { label, percent }) {
    const W = 420,
      H = 180,
      L = 44,
      R = 12,
      T = 12,
      B = 26;
    const svg = chartFrame(values.length ? _("{chart}, latest {value}", { chart: label, value: `${values[values.length - 1].toFixed(1)}${percent ? "%" : ""}` }) : label, W, H);
    if (!values.length) return svg;
    let lo = Math.min(0, ...values),
      hi = Math.max(0, ...values);
    if (hi === lo) hi = lo + 1;
    const x = (i) => L + (values.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (values.length - 1));
    const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
    svg.append(svgEl("line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }));
    svg.append(svgEl("line", { class: "axis", x1: L, y1: y(0), x2: W - R, y2: y(0) }));
    for (const v of [lo, hi]) {
      svg.append(svgEl("line", { class: "grid", x1: L, y1: y(v), x2: W - R, y2: y(v) }));
      svg.append(svgEl("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end" }, `${v.toFixed(1)}${percent ? "%" : ""}`));
    }
    svg.append(svgEl("text", { x: L, y: H - 6 }, _("game {n}", { n: 1 })));
    svg.append(svgEl("text", { x: W - R, y: H - 6, "text-anchor": "end" }, _("game {n}", { n: values.length })));
    const d = values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.append(svgEl("path", { class: "line", d }));
    values.forEach((v, i) => svg.append(svgEl("circle", { class: "dot", cx: x(i), cy: y(v), r: 3 })));
    return svg;
  }
  function barChart(items, label) {
    const W = 420,
      H = 160,
      L = 44,
      R = 12,
      T = 12,
      B = 12;
    const svg = chartFrame(label, W, H);
    if (!items.length) return svg;
    const vals = items.map((m) => m.value);
    let lo = Math.min(0, ...vals),
      hi = Math.max(0, ...vals);
    if (hi === lo) hi = lo + 1;
    const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
    const bw = (W - L - R) / items.length;
    items.forEach((m, i) => {
      const y0 = y(0),
        y1 = y(m.value);
      const rect = svgEl("rect", {
        class: m.won ? "win" : "loss",
        x: L + i * bw + bw * 0.15,
        width: Math.max(1, bw * 0.7),
        y: Math.min(y0, y1),
        height: Math.max(1, Math.abs(y1 - y0)),
      });
      rect.append(svgEl("title", {}, m.won ? _("game {n}: won by {points}", { n: i + 1, points: Math.abs(m.value) }) : _("game {n}: lost by {points}", { n: i + 1, points: Math.abs(m.value) })));
      svg.append(rect);
    });
    svg.append(svgEl("line", { class: "axis", x1: L, y1: y(0), x2: W - R, y2: y(0) }));
    svg.append(svgEl("text", { x: L - 4, y: y(hi) + 4, "text-anchor": "end" }, String(hi)));
    svg.append(svgEl("text", { x: L - 4, y: y(lo) + 4, "text-anchor": "end" }, String(lo)));
    return svg;
  }

  // ---------------------------------------------------------------- the rules
  /** Text of the rule book with its **bold** and `code` marks drawn (no HTML is parsed). */
  function marked(text) {
    const out = [];
    const re = /\*\*([^*]+)\*\*|`([^`]+)`|\*([^*\s][^*]*)\*/g;
    let last = 0;
    let m;
    while ((m = re.exec(text)) !== null) {
      out.push(text.slice(last, m.index));
      out.push(m[1] !== undefined ? el("strong", {}, m[1]) : m[2] !== undefined ? el("code", {}, m[2]) : el("em", {}, m[3]));
      last = m.index + m[0].length;
    }
    out.push(text.slice(last));
    return out;
  }
  /** The rules of the game in play (or of the game chosen in the lobby), from the server's rule book. */
  async function showRules() {
    const v = S.view === "game" && S.obs ? S.obs.variant : $("new-variant").value;
    if (!v) return; // the lobby's games not loaded yet
    const dlg = $("rules-dialog");
    const body = fill($("rules-body"), el("p", {}, _("Loading the rules…")));
    $("rules-title").textContent = _("Rules: {game}", { game: variantTitle(v) });
    if (!dlg.open) dlg.showModal();
    let data;
    try {
      const r = await fetch(`/api/rules/${encodeURIComponent(v)}?${langQuery()}`);
      data = await r.json();
      if (!r.ok) throw new Error(data.error || _("no rules"));
    } catch (e) {
      fill(body, el("p", {}, _("The rules cannot be shown: {error}", { error: e.message })));
      return;
    }
    clear(body);
    for (const sec of data.sections) {
      // a section in another language than the page's (the English book where none is translated) says so
      const lang = sec.lang && sec.lang !== LANG.code ? sec.lang : undefined;
      const part = el("section", { "data-section": sec.id, lang }, el("h3", {}, sec.title));
      for (const b of sec.blocks) {
        if (b.type === "p") part.append(el("p", {}, ...marked(b.text)));
        else if (b.type === "ul") part.append(el("ul", {}, b.items.map((t) => el("li", {}, ...marked(t)))));
        else if (b.type === "table") {
          const [head, ...rows] = b.rows;
          part.append(
            el(
              "div",
              { class: "sheet-wrap" },
              el(
                "table",
                { class: "rules-table" },
                el("thead", {}, el("tr", {}, head.map((c) => el("th", { scope: "col" }, ...marked(c))))),
                el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, ...marked(c)))))),
              ),
            ),
          );
        }
      }
      body.append(part);
    }
    body.append(el("p", { class: "label" }, _("From the rule book ({source}).", { source: data.source })));
  }

  // ---------------------------------------------------------------- preferences and keys
  function applyPrefs() {
    document.body.classList.toggle("four-colour", !!prefs.four);
    document.body.classList.toggle("large", !!prefs.large);
    document.body.classList.toggle("contrast", !!prefs.contrast);
    $("pref-four").setAttribute("aria-pressed", String(!!prefs.four));
    $("pref-large").setAttribute("aria-pressed", String(!!prefs.large));
    $("pref-contrast").setAttribute("aria-pressed", String(!!prefs.contrast));
    store("ginrummy.prefs", prefs);
  }

  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if ($("help").open || $("rules-dialog").open) return;
    if (S.view === "replay" && S.replay) {
      const to = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
      const hand = { PageUp: -1, PageDown: 1 }[ev.key];
      if (to) replayStep(S.replay.i + to);
      else if (hand) replayHand(hand);
      else if (ev.key === "Home") replayStep(0);
      else if (ev.key === "End") replayStep(S.replay.data.frames.length - 1);
      else return;
      ev.preventDefault();
      return;
    }
    if (ev.key === "?") {
      ev.preventDefault();
      $("help").showModal();
      return;
    }
    if (ev.key === "r" || ev.key === "R") {
      ev.preventDefault();
      showRules();
      return;
    }
    if (S.view !== "game" || !S.obs) return;
    const o = S.obs;
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    const order = "1234567890-";
    const hand = displayHand();
    const sel = S.selected;
    const tryAct = (a) => {
      if (can(a)) {
        ev.preventDefault();
        if (a.startsWith("discard") || a.startsWith("knock") || a.startsWith("gin")) S.selected = null;
        act(a);
        return true;
      }
      return false;
    };
    if (order.includes(key) && key.length === 1) {
      const i = order.indexOf(key);
      if (i < hand.length) {
        ev.preventDefault();
        S.selected = hand[i];
        renderHand();
        renderActions();
        const node = document.querySelector(`#hand .card[data-card="${hand[i]}"]`);
        if (node) node.focus({ preventScroll: true });
      }
      return;
    }
    switch (key) {
      case "d":
        tryAct("draw");
        break;
      case "t":
        tryAct("take");
        break;
      case "p":
        tryAct("pass");
        break;
      case "x":
      case "Delete":
        if (sel) tryAct(`discard ${sel}`);
        break;
      case "k":
        if (!(sel && tryAct(`knock ${sel}`))) tryAct("knock");
        break;
      case "g":
        if (!(sel && tryAct(`gin ${sel}`))) tryAct("gin");
        break;
      case "h":
        if ($("hint")) {
          ev.preventDefault();
          send({ type: "hint" });
        }
        break;
      case "u":
        if ($("undo")) {
          ev.preventDefault();
          send({ type: "undo" });
        }
        break;
      case "n":
        if ($("deal") && !$("deal").disabled) {
          ev.preventDefault();
          send({ type: "deal" });
        }
        break;
      case "s":
        ev.preventDefault();
        toggleSort();
        break;
      default:
        break;
    }
  }
  function toggleSort() {
    if (S.obs && handOrder()) {
      saveHandOrder(null); // back from the player's own order to a sorted one
      prefs.sort = "suit";
    } else prefs.sort = prefs.sort === "rank" ? "suit" : "rank";
    store("ginrummy.prefs", prefs);
    if (S.obs) {
      renderHand();
      renderSitter();
    }
  }

  // ---------------------------------------------------------------- start
  function start() {
    applyPrefs();
    $("pref-four").addEventListener("click", () => { prefs.four = !prefs.four; applyPrefs(); });
    $("pref-large").addEventListener("click", () => { prefs.large = !prefs.large; applyPrefs(); });
    $("pref-contrast").addEventListener("click", () => { prefs.contrast = !prefs.contrast; applyPrefs(); });
    $("nav-play").addEventListener("click", () => {
      S.away = !(S.game && S.obs);
      show(S.away ? "lobby" : "game");
    });
    $("nav-stats").addEventListener("click", () => {
      S.away = true;
      show("stats");
    });
    $("nav-display").addEventListener("click", () => {
      const open = document.body.classList.toggle("show-prefs");
      $("nav-display").setAttribute("aria-expanded", String(open));
    });
    $("nav-help").addEventListener("click", () => $("help").showModal());
    $("nav-rules").addEventListener("click", showRules);
    $("home-link").addEventListener("click", (ev) => {
      ev.preventDefault();
      S.away = true;
      show("lobby");
    });
    $("leave").addEventListener("click", () => {
      S.away = true;
      show("lobby");
    });
    $("sort-toggle").addEventListener("click", toggleSort);
    $("replay-first").addEventListener("click", () => replayStep(0));
    $("replay-back").addEventListener("click", () => replayStep(S.replay.i - 1));
    $("replay-next").addEventListener("click", () => replayStep(S.replay.i + 1));
    $("replay-last").addEventListener("click", () => replayStep(S.replay.data.frames.length - 1));
    $("replay-hand-back").addEventListener("click", () => replayHand(-1));
    $("replay-hand-next").addEventListener("click", () => replayHand(1));
    $("replay-slider").addEventListener("input", (ev) => replayStep(Number(ev.target.value)));
    const closeReplay = () => {
      S.replay = null;
      S.away = !(S.game && S.obs);
      show(S.away ? "lobby" : "game");
    };
    $("replay-close").addEventListener("click", closeReplay);
    $("record-back").addEventListener("click", closeReplay);
    $("open-record").addEventListener("click", () => {
      S.replay = null;
      S.away = true;
      recordError("");
      show("replay");
      $("record-file").focus({ preventScroll: true });
    });
    $("record-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      openRecord();
    });
    $("record-choice").addEventListener("change", (ev) => openRecord(Number(ev.target.value)));
    $("record-file").addEventListener("change", () => $("record-file").files.length && openRecord());
    $("new-variant").addEventListener("change", () => S.info && (fillOpponents(S.info), fillOptions(S.info)));
    $("new-watch").addEventListener("change", () => S.info && fillOpponents(S.info));
    $("new-opponent").addEventListener("change", () => S.info && describeOpponent(S.info));
    $("table-variant").addEventListener("change", () => S.info && fillTableSeats(S.info));
    $("form-new").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const info = await loadInfo();
      const v = $("new-variant").value;
      const msg = { type: "new", variant: v };
      const watch = $("new-watch").checked;
      if (watch) msg.watch = true;
      const opp = $("new-opponent").value;
      if ((watch || !info.variants[v].solo) && opp) msg.opponent = opp;
      const nm = $("new-name").value.trim();
      if (nm) msg.name = nm;
      const opts = readOptions(info);
      if (Object.keys(opts).length) msg.options = opts;
      saveSettings({ variant: v, name: nm, watch, opponents: opp ? { [watch ? `${v}:watch` : v]: opp } : {}, options: { [v]: opts } });
      send(msg);
    });
    $("form-table").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const others = Array.from(document.querySelectorAll("#table-seats select")).map((s) => s.value);
      const msg = { type: "create_table", variant: $("table-variant").value, seats: others, hints: $("table-hints").checked };
      const nm = $("table-name").value.trim();
      if (nm) msg.name = nm;
      saveSettings({ tableVariant: msg.variant, tableName: nm, tableHints: msg.hints });
      send(msg);
    });
    $("form-join").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const msg = { type: "join", invite: S.joinCode };
      const nm = $("join-name").value.trim();
      if (nm) msg.name = nm;
      send(msg);
    });
    document.addEventListener("keydown", onKey);

    const m = location.pathname.match(/^\/join\/([A-Za-z0-9_-]{1,64})$/);
    const current = load("ginrummy.current", null);
    const known = current ? seats()[current] : null;
    const mine = m ? Object.keys(seats()).find((id) => (seats()[id].invites || []).includes(m[1]) || seats()[id].invite === m[1]) : null;
    if (mine) {
      // This browser already has a seat at that table: take it again rather than a second one.
      history.replaceState(null, "", "/");
      S.game = mine;
      S.token = seats()[mine].token;
      store("ginrummy.current", mine);
      show("game");
    } else if (m) {
      S.joinCode = m[1];
      show("join");
    } else if (location.pathname === "/stats") {
      S.away = true;
      show("stats");
    } else if (known) {
      S.game = current;
      S.token = known.token;
      show("game");
    } else {
      show("lobby");
    }
    connect();
  }

  const begin = () => loadMessages().then(start);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin);
  else begin();
})();
