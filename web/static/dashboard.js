/* The live table: renders each state pushed over SSE (or polled), fetches the history after
   each hand. Uses TT from draw.js. */
"use strict";

(() => {
  const { el, svg, fmt, mmss, card, back, chips, PALETTE, _, ngettext } = TT;
  const $ = (id) => document.getElementById(id);
  let state = null, receivedAt = 0, historyKey = null;

  const STREET = { preflop: _("Pre-flop"), flop: _("Flop"), turn: _("Turn"), river: _("River"), showdown: _("Showdown") };

  function seatName(s, seat) {
    const p = s.seats[seat];
    return (p && p.name) || _("Seat {n}", { n: seat + 1 });
  }

  /* ------------------------------------------------------------ blinds and phase */
  /** Five-card draw: the game and its stakes instead of the blinds. */
  function drawStakes(s) {
    const game = s.draw_game, r = game.rules;
    const parts = [el("span", { class: "now", text: game.name })];
    if (r.ante) parts.push(el("span", { class: "num", text: _("ante {amount}", { amount: fmt(r.ante) }) }));
    if (r.opening_bet) parts.push(el("span", { class: "num", text: _("opening bet {amount}", { amount: fmt(r.opening_bet) }) }));
    parts.push(el("span", { class: "num", text: r.betting === "fixed-limit" ? _("bets {small} / {big}", { small: fmt(r.small_bet), big: fmt(r.big_bet) }) : _("min bet {amount}", { amount: fmt(r.small_bet) }) }));
    if (game.warning) parts.push(el("span", { class: "clock", text: game.warning }));
    return parts;
  }

  function renderBlinds(s) {
    if (s.draw_game) { TT.fill($("blinds"), ...drawStakes(s)); return; }
    const b = s.blinds || {};
    const lv = b.hand_level && s.status !== "waiting" ? b.hand_level : b;
    const parts = [el("span", { class: "now num", text: `${fmt(lv.small_blind)} / ${fmt(lv.big_blind)}` })];
    if (lv.ante) parts.push(el("span", { class: "num", text: _("ante {amount}", { amount: fmt(lv.ante) }) }));
    if (b.levels > 1) parts.push(el("span", { class: "clock", text: _("level {level} of {levels}", { level: b.level + 1, levels: b.levels }) }));
    if (b.next) {
      const next = { small: fmt(b.next.small_blind), big: fmt(b.next.big_blind), ante: fmt(b.next.ante) };
      parts.push(el("span", { class: "next num", text: b.next.ante ? _("next {small} / {big} ante {ante}", next) : _("next {small} / {big}", next) }));
    }
    if (b.seconds_left !== null && b.seconds_left !== undefined && b.level_seconds > 0) {
      parts.push(el("span", { class: "left num", id: "time-left", text: "" }));
      if (b.clock === "paused") parts.push(el("span", { class: "clock", text: _("clock paused") }));
    }
    if (s.betting === "fixed-limit") parts.push(el("span", { class: "clock", text: _("fixed limit") }));
    if (s.variant === "tock") parts.push(el("span", { class: "clock", text: "Tock-Poker" }));
    TT.fill($("blinds"), ...parts);
    tickClock();
  }

  function tickClock() {
    const node = $("time-left");
    if (!node || !state) return;
    const b = state.blinds;
    const passed = b.clock === "running" ? (Date.now() - receivedAt) / 1000 : 0;
    node.textContent = _("{time} left", { time: mmss(b.seconds_left - passed) });
  }

  function phaseText(s) {
    if (s.phase === "seating" && s.first_dealer === "croupier") return [_("Waiting for the first dealer"), _("the puck goes in front of the first player to the croupier's right")];
    if (s.phase === "seating") return [_("Waiting for the draw for the first dealer"), _("each player turns a card face up")];
    if (s.phase === "ready") return [_("Between hands"), _("the dealer deals the next one")];
    if (s.phase === "settled") {
      const wait = s.confirm_in !== null && s.confirm_in !== undefined ? _("next hand in {seconds} s", { seconds: Math.ceil(s.confirm_in) }) : _("waiting for the host");
      return [_("Hand {number} is over", { number: s.hand_number }), wait];
    }
    const game = s.draw_game;
    if (game) {
      if (s.to_act !== null && s.to_act !== undefined) return [_("{name} to act", { name: seatName(s, s.to_act) }), game.phase || ""];
      if (game.to_draw !== null && game.to_draw !== undefined) return [_("{name} to draw", { name: seatName(s, game.to_draw) }), _("exchanges 0 to {most} cards", { most: game.rules.max_draw })];
      if (s.street === "showdown") return [_("Showdown"), _("players turn their five cards face up")];
      return [game.phase || "", ""];
    }
    if (s.to_act !== null && s.to_act !== undefined) return [_("{name} to act", { name: seatName(s, s.to_act) }), STREET[s.street] || ""];
    if (s.street === "showdown") return [_("Showdown"), _("players turn their cards face up")];
    const next = { preflop: _("waiting for the flop"), flop: _("waiting for the turn"), turn: _("waiting for the river") }[s.street];
    return [STREET[s.street] || "", next || ""];
  }

  function renderPhase(s) {
    const [main, detail] = phaseText(s);
    TT.fill($("phase"), el("strong", { text: main }), detail ? ` · ${detail}` : "");
    $("hand-no").textContent = s.hand_number ? _("Hand {number}", { number: s.hand_number }) : _("No hand yet");
  }

  /* ------------------------------------------------------------ the table */
  /** Where seat i of n sits, in % of the table: seat 0 at the bottom, clockwise on screen. With
      4 or 8 seats the ring turns half a seat so that no seat sits level with the board; seats
      close to that level move out to the edge (opts.side: the wider x radius for them). */
  function place(i, n, r, opts) {
    const turn = n % 4 === 0 ? 0.5 : 0;
    const a = Math.PI / 2 + (2 * Math.PI * (i + turn)) / n;
    const side = opts && opts.side && Math.abs(Math.sin(a)) < 0.45 ? opts.side : r.x;
    return { x: 50 + side * Math.cos(a), y: 50 + r.y * Math.sin(a) };
  }

  /** Shift seat boxes that stick out of the table back inside it. */
  function keepInside() {
    const box = $("table").getBoundingClientRect();
    for (const seat of document.querySelectorAll("#seats .seat")) {
      const r = seat.getBoundingClientRect();
      const dx = Math.max(0, box.left + 2 - r.left) - Math.max(0, r.right - (box.right - 2));
      if (dx) seat.style.left = `calc(${seat.style.left} + ${dx}px)`;
    }
  }

  function winnersOf(s) {
    const h = s.last_hand;
    if (!h || h.number !== s.hand_number || s.phase !== "settled") return {};
    const won = {};
    for (const pot of h.pots) for (const w of pot.winners) won[w.seat] = (won[w.seat] || 0) + w.amount;
    return won;
  }

  function renderTable(s) {
    const n = s.seats.length;
    $("table").classList.toggle("many", n > 6);
    const wide = $("table").clientWidth > $("table").clientHeight;
    const seatR = wide ? { x: 41, y: 42 } : { x: 38, y: 40 };
    const won = winnersOf(s);
    const draws = {};
    for (const d of s.draw || []) draws[d.seat] = d.card;
    const game = s.draw_game;
    const holeCount = game ? 5 : 2;
    const nodes = [];
    for (const p of s.seats) {
      const at = place(p.seat, n, seatR, { side: wide ? 44 : 41 });
      const classes = ["seat", p.state];
      const tags = [];
      if (p.state === "empty") {
        nodes.push(el("div", { class: "seat empty", style: { left: `${at.x}%`, top: `${at.y}%` } },
          el("div", { class: "name muted", text: _("Seat {n}", { n: p.seat + 1 }) })));
        continue;
      }
      if (s.phase === "playing" && s.to_act === p.seat) { classes.push("to-act"); tags.push(el("span", { class: "tag act", text: _("TO ACT") })); }
      if (game && s.phase === "playing" && game.to_draw === p.seat) { classes.push("to-act"); tags.push(el("span", { class: "tag act", text: _("TO DRAW") })); }
      if (game && p.drew !== null && p.drew !== undefined && p.in_hand) tags.push(el("span", { class: "tag drew", "data-drew": p.drew, text: p.drew ? _("DREW {count}", { count: p.drew }) : _("PAT") }));
      if (p.state === "folded") tags.push(el("span", { class: "tag folded", text: _("FOLDED") }));
      if (p.all_in || (p.in_hand && !p.folded && p.stack === 0 && s.status === "playing")) tags.push(el("span", { class: "tag allin", text: _("ALL-IN") }));
      if (p.state === "sitting_out") tags.push(el("span", { class: "tag out", text: _("SITTING OUT") }));
      if (p.state === "busted") tags.push(el("span", { class: "tag out", text: _("OUT") }));
      if (won[p.seat]) { classes.push("winner"); tags.push(el("span", { class: "tag win", text: _("WINS {amount}", { amount: fmt(won[p.seat]) }) })); }
      const opens = game && s.status !== "waiting" && game.opening_seat === p.seat ? ` · ${_("OPENS")}` : "";
      const blind = s.status !== "waiting" ? (p.seat === s.small_blind_seat ? ` · ${_("SB")}` : p.seat === s.big_blind_seat ? ` · ${_("BB")}` : opens) : "";
      const hole = el("div", { class: game ? "hole five" : "hole" });
      if (p.hole && p.hole.length) hole.append(...p.hole.map((c) => card(c)));
      else if (draws[p.seat] !== undefined && s.phase === "seating") hole.append(card(draws[p.seat]));
      else if (p.in_hand && !p.folded && !p.mucked) hole.append(...Array.from({ length: holeCount }, (_, k) => back((p.marks || [])[k])));
      // The bet sits in the seat's box: on a phone there is no room on the felt between the
      // side seats and the board.
      const bet = p.bet > 0 ? el("div", { class: "bet", "data-bet": p.seat, title: _("bet {amount}", { amount: fmt(p.bet) }) },
        chips(p.bet_chips, s.chip_set, { perStack: 3, width: 11 }), el("span", { class: "num", text: fmt(p.bet) })) : null;
      // The dealer button rides in its seat's box, beside the stack: out on the felt it would
      // cover a board card whenever the dealer sits level with the board.
      const dealer = p.dealer ? el("span", { class: "dealer-btn", title: _("dealer button"), "aria-label": _("dealer"), text: _("D") }) : null;
      nodes.push(el("div", { class: classes.join(" "), style: { left: `${at.x}%`, top: `${at.y}%` }, "data-seat": p.seat },
        el("div", { class: "name", text: p.name + blind }),
        el("div", { class: "stack num" }, dealer, fmt(p.stack)),
        bet,
        tags.length ? el("div", {}, ...tags) : null,
        hole.childNodes.length ? hole : null,
        p.hand ? el("div", { class: "hand-name", text: p.hand }) : null));
    }
    TT.fill($("seats"), ...nodes);
    keepInside();

    const board = [];
    const marks = s.board_marks || [];
    for (let i = 0; i < (game ? 0 : 5); i++) {
      if (s.board[i]) board.push(card(s.board[i]));
      else if (marks[i]) board.push(back(marks[i]));
      else board.push(el("span", { class: "slot" }));
    }
    TT.fill($("board"), ...board);

    const potAmount = s.status === "playing" ? s.pot_total : s.pots.reduce((t, p) => t + p.amount, 0);
    const pot = $("pot");
    if (potAmount > 0) {
      const sides = splitPots(s) ? ngettext("{n} side pot", "{n} side pots", s.pots.length - 1) : "";
      TT.fill(pot,
        chips(s.status === "playing" ? s.pot_chips : potChips(s), s.chip_set, { perStack: 6, width: 20 }),
        el("div", { class: "label", text: _("Pot") }),
        el("div", { class: "amount num", id: "pot-amount", text: fmt(potAmount) }),
        sides ? el("div", { class: "sides", text: sides }) : null);
    } else TT.fill(pot);
    const status = $("status");
    const [main] = phaseText(s);
    status.hidden = !(s.phase === "settled" || s.phase === "seating" || s.phase === "ready");
    status.textContent = main;
  }

  /** Whether the pots are really split: while bets are open the engine's pots also separate the
      part of a bet nobody has called yet, which is not a side pot until someone is all-in. */
  function splitPots(s) {
    return s.pots.length > 1 && (s.status !== "playing" || s.seats.some((p) => p.all_in));
  }

  /** The chips of every pot together (a settled hand's pots), largest value first. */
  function potChips(s) {
    const total = {};
    for (const pot of s.pots) for (const [value, count] of pot.chips || []) total[value] = (total[value] || 0) + count;
    return Object.entries(total).map(([v, n]) => [Number(v), n]).sort((a, b) => b[0] - a[0]);
  }

  /* ------------------------------------------------------------ panels */
  function renderWarnings(s) {
    TT.fill($("warnings"), ...(s.warnings || []).filter((w) => w.kind !== "storage").map((w) => el("li", { text: _("⚠ {reason}", { reason: w.message }) })));
    const noPicture = _("no picture");
    if (s.camera && !s.camera.ok) $("warnings").append(el("li", { text: _("⚠ camera: {reason}", { reason: s.camera.message || noPicture }) }));
  }

  function cardsRow(codes, best, size) {
    const bestSet = new Set(best || []);
    return el("span", { class: "cards" }, ...(codes || []).map((c) => card(c, `${size || "mini"} ${bestSet.has(c) ? "best" : ""}`)));
  }

  function potTitle(i, total) {
    return total === 1 ? _("Pot") : i === 0 ? _("Main pot") : _("Side pot {number}", { number: i });
  }

  function showdownNode(h, heading) {
    const nodes = [el("h2", { text: heading })];
    h.pots.forEach((pot, i) => {
      const names = pot.winners.map((w) => w.name).join(_(" and "));
      const split = pot.winners.length > 1 ? _(" (split)") : "";
      const part = el("div", { class: "pot-result", "data-pot": i });
      part.append(el("div", { class: "muted", text: `${potTitle(i, h.pots.length)} · ${fmt(pot.amount)}` }));
      for (const w of pot.winners) {
        part.append(el("div", { class: "winner" }, _("{name} wins ", { name: w.name }), el("span", { class: "amt num", text: fmt(w.amount) }), split));
        part.append(el("div", { class: "hand", text: w.hand }));
        if (w.best_five && w.best_five.length) part.append(cardsRow(w.best_five, null, "mini"));
      }
      if (!pot.winners.length) part.append(el("div", { text: names }));
      nodes.push(part);
    });
    const winners = new Set(h.pots.flatMap((p) => p.winners.map((w) => w.seat)));
    const others = (h.shown || []).filter((x) => !winners.has(x.seat));
    if (others.length) {
      nodes.push(el("ul", { class: "others" }, ...others.map((x) => el("li", {}, _("{name}: {hand} ", { name: x.name, hand: x.hand || _("shown") }), cardsRow(x.cards, x.best_five, "tiny")))));
    }
    if (h.board && h.board.length) nodes.push(el("div", { class: "others" }, _("Board "), cardsRow(h.board, null, "tiny")));
    const pat = _("pat"), none = _("none");
    if (h.draws) nodes.push(el("div", { class: "others draws" }, _("Draws: {draws}", { draws: h.draws.map((d) => `${d.name} ${d.count || pat}`).join(", ") || none })));
    return nodes;
  }

  function renderShowdown(s) {
    const h = s.last_hand, panel = $("showdown");
    const current = h && h.number === s.hand_number && s.phase === "settled";
    panel.hidden = !current;
    if (current) TT.fill(panel, ...showdownNode(h, _("Hand {number}: result", { number: h.number })));
  }

  function renderPots(s) {
    const live = s.status === "playing" && splitPots(s);
    $("pots-panel").hidden = !live;
    if (!live) return;
    TT.fill($("pots"), ...s.pots.map((pot, i) => el("li", { "data-pot": i },
      el("strong", { text: potTitle(i, s.pots.length) }),
      chips(pot.chips, s.chip_set, { perStack: 5, width: 17 }),
      el("span", { class: "num", text: fmt(pot.amount) }),
      el("span", { class: "who", text: pot.eligible.map((seat) => seatName(s, seat)).join(", ") }))));
  }

  function renderLedger(lines) {
    const rows = [el("tr", {}, el("th", { text: _("Player") }), el("th", { text: _("In") }), el("th", { text: _("Now") }), el("th", { text: _("Net") }))];
    for (const l of lines || []) {
      const cls = l.net > 0 ? "pos" : l.net < 0 ? "neg" : "";
      rows.push(el("tr", {}, el("td", { text: l.name }), el("td", { class: "num", text: fmt(l.bought_in) }),
        el("td", { class: "num", text: fmt(l.cashed_out) }), el("td", { class: `num ${cls}`, text: (l.net > 0 ? "+" : "") + fmt(l.net) })));
    }
    TT.fill($("ledger"), ...rows);
  }

  /* ------------------------------------------------------------ history and chart */
  function renderHands(history) {
    const list = $("hands");
    if (!history.hands.length) { TT.fill(list, el("li", { class: "muted", text: _("No hand finished yet.") })); return; }
    // One line per winner with the hand's net result (what the ledger counts), not the pot taken.
    const signed = (n) => (n > 0 ? "+" : n < 0 ? "−" : "±") + fmt(Math.abs(n));
    TT.fill(list, ...history.hands.map((h) => {
      const winners = h.winners || [];
      const best = winners[0];
      const nets = winners.map((w, i) => el("strong", { class: `net ${w.net > 0 ? "pos" : w.net < 0 ? "neg" : ""}`, "data-seat": w.seat },
        `${w.name} ${signed(w.net)}`, i < winners.length - 1 ? "," : ""));
      return el("li", { "data-hand": h.number },
        el("div", { class: "head" }, el("span", { class: "no", text: `#${h.number}` }), ...nets,
          best && best.hand !== "everyone else folded" ? el("span", { class: "muted", text: best.hand }) : el("span", { class: "muted", text: _("uncontested") })),
        h.board.length ? cardsRow(h.board, best ? best.best_five : null, "tiny") : null);
    }));
  }

  function renderChart(series) {
    const box = $("chart");
    const xs = series.hands;
    if (xs.length < 2) { TT.fill(box, el("p", { class: "muted", text: _("The chart starts after the first hand.") })); return; }
    const W = 340, H = 190, L = 44, R = 8, T = 8, B = 22;
    const values = series.players.flatMap((p) => p.stacks.filter((v) => v !== null));
    const top = Math.max(1, ...values), x0 = xs[0], x1 = xs[xs.length - 1];
    const X = (x) => L + ((x - x0) / Math.max(1, x1 - x0)) * (W - L - R);
    const Y = (v) => T + (1 - v / top) * (H - T - B);
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": _("stacks after each hand") });
    for (const f of [0, 0.5, 1]) {
      const v = Math.round(top * f);
      root.append(svg("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), stroke: "#2a3d33", "stroke-width": 1 }));
      root.append(svg("text", { x: L - 4, y: Y(v) + 4, "text-anchor": "end", fill: "#9fb3a8", "font-size": 10, text: fmt(v) }));
    }
    root.append(svg("text", { x: L, y: H - 6, fill: "#9fb3a8", "font-size": 10, text: _("hand {number}", { number: x0 }) }));
    root.append(svg("text", { x: W - R, y: H - 6, fill: "#9fb3a8", "font-size": 10, "text-anchor": "end", text: _("hand {number}", { number: x1 }) }));
    const legend = el("div", { class: "legend" });
    series.players.forEach((p, i) => {
      const colour = PALETTE[i % PALETTE.length];
      let d = "", pen = false;
      p.stacks.forEach((v, k) => {
        if (v === null) { pen = false; return; }
        d += `${pen ? "L" : "M"}${X(xs[k]).toFixed(1)},${Y(v).toFixed(1)}`;
        pen = true;
      });
      root.append(svg("path", { d, fill: "none", stroke: colour, "stroke-width": 2, "stroke-linejoin": "round" }, svg("title", { text: p.name })));
      const last = [...p.stacks].reverse().find((v) => v !== null);
      legend.append(el("span", {}, el("i", { style: { background: colour } }), `${p.name} ${fmt(last)}`));
    });
    TT.fill(box, root, legend);
  }

  async function refreshHistory(s) {
    const key = `${s.session}:${s.ledger.map((l) => l.cashed_out).join(",")}:${s.last_hand ? s.last_hand.number : 0}`;
    if (key === historyKey) return;
    historyKey = key;
    const history = await TT.getJSON("/api/history?limit=8");
    if (!history) { historyKey = null; return; }
    renderHands(history);
    renderChart(history.stacks);
  }

  /* ------------------------------------------------------------ wiring */
  function render(s) {
    state = s;
    receivedAt = Date.now();
    document.body.dataset.phase = s.phase;
    document.body.dataset.version = s.version;
    renderBlinds(s);
    renderPhase(s);
    renderTable(s);
    renderWarnings(s);
    renderShowdown(s);
    renderPots(s);
    renderLedger(s.ledger);
    refreshHistory(s);
  }

  const initial = document.getElementById("initial-state");
  if (initial && initial.textContent.trim()) {
    try { render(JSON.parse(initial.textContent)); } catch (e) { /* the live feed will draw it */ }
  }
  const live = $("live");
  TT.follow(render, (mode) => {
    live.className = `live live-${mode === "live" ? "on" : mode}`;
    live.textContent = mode === "live" ? _("live") : mode === "polling" ? _("polling") : _("offline");
  }, { sse: !/[?&]poll\b/.test(location.search) });
  setInterval(tickClock, 1000);
  let width = 0;
  window.addEventListener("resize", () => { if (state && Math.abs(window.innerWidth - width) > 20) { width = window.innerWidth; renderTable(state); } });
})();
