/* The set-up page's dry run: start, then follow street by street what the camera saw while the
   host deals one hand. */
"use strict";

(() => {
  const { el, _, ngettext, fmt } = TT;
  const $ = (id) => document.getElementById(id);
  if (!$("dry-panel")) return;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const STATES = {
    idle: _("Not started."),
    waiting: _("Watching: deal a card to every seat."),
    dealing: _("Watching the hand…"),
    done: _("The hand is over: here is what the camera saw, and what the game would have done."),
  };

  const STREET = { preflop: _("Pre-flop"), flop: _("Flop"), turn: _("Turn"), river: _("River"), showdown: _("Showdown") };

  function cardText(c) { return !c.face_up ? _("face down") : c.card || _("unread"); }

  function seatText(s) {
    const parts = [ngettext("{n} card", "{n} cards", s.cards)];
    if (s.face_up) parts.push(_("{up} face up, {read} read", { up: s.face_up, read: s.read }));
    if (s.marked) parts.push(ngettext("{n} mark read", "{n} marks read", s.marked));
    return _("{label}: {parts}", { label: seat(s.seat, s.label), parts: parts.join(", ") });
  }

  /** What the game would do on the street: blinds, who acts first, the pot, the winners. */
  const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1);

  const seat = (n, label) => (n ? _("Seat {n}", { n }) : cap(label || ""));

  function waitingText(g) {
    const v = g.waiting_values || {};
    switch (g.waiting_kind) {
      case "cannot-follow": return _("the game cannot follow this hand: {detail}", { detail: v.detail });
      case "board-unread": return _("board card {cards} is not read: the game waits for it (the host can enter it on the host page)", { cards: v.cards });
      case "board-refused": return _("the game refuses the board: {detail}", { detail: v.detail });
      case "hand-refused": return _("the game refuses the hand of seat {seat}: {detail}", { seat: v.seat, detail: v.detail });
      case "hands-hidden": {
        const seats = v.seats || [];
        return ngettext("turn every hand face up: seat {seats} not shown (or not read) yet", "turn every hand face up: seats {seats} not shown (or not read) yet", seats.length, { seats: seats.join(", ") });
      }
      default: return g.waiting;
    }
  }

  function gameText(g) {
    if (!g) return [];
    const lines = [];
    if (g.blinds && g.blinds.length) {
      const blinds = g.blinds.map((b) => (b.kind === "small"
        ? _("{seat} small blind {amount}", { seat: seat(b.number, b.seat), amount: fmt(b.amount) })
        : _("{seat} big blind {amount}", { seat: seat(b.number, b.seat), amount: fmt(b.amount) })));
      lines.push(_("Button: {seat}. Blinds posted: {blinds}.", { seat: seat(g.button_number, g.button), blinds: blinds.join(", ") }));
    }
    if (g.acts_first) {
      lines.push(g.pot_after !== g.pot
        ? _("{seat} acts first; pot {pot}, {after} once everyone calls.", { seat: seat(g.acts_first_number, g.acts_first), pot: fmt(g.pot), after: fmt(g.pot_after) })
        : _("{seat} acts first; pot {pot}.", { seat: seat(g.acts_first_number, g.acts_first), pot: fmt(g.pot) }));
    }
    if (g.winners && g.winners.length) {
      lines.push(...g.winners.map((w) => (w.hand
        ? _("{seat} wins {amount}: {hand}.", { seat: seat(w.number, w.seat), amount: fmt(w.amount), hand: w.hand })
        : _("{seat} wins {amount}.", { seat: seat(w.number, w.seat), amount: fmt(w.amount) }))));
    }
    if (g.waiting) lines.push(_("The game waits: {why}.", { why: waitingText(g) }));
    return lines;
  }

  function show(data) {
    $("dry-status").textContent = STATES[data.state] || data.state;
    TT.fill($("dry-streets"), ...data.streets.map((s) => el("div", { class: "panel dry-street", "data-street": s.street },
      el("h3", { style: "font-size:.95rem;margin:.2em 0", text: _("{street} (frame {frame})", { street: STREET[s.street] || s.street, frame: s.frame }) }),
      el("p", { class: "dry-board", style: "margin:.2em 0", text: s.board.length ? _("Board: {cards}", { cards: s.board.map(cardText).join(" ") }) : _("Board: none yet") }),
      el("p", { class: "dry-seats", style: "margin:.2em 0", text: s.seats.map(seatText).join(" · ") }),
      ...gameText(s.game).map((t) => el("p", { class: "dry-game", style: "margin:.2em 0", text: t })),
      ...s.conflicts.map((m) => el("p", { class: "notice", style: "margin:.2em 0", text: _("⚠ {reason}", { reason: m }) })))));
  }

  async function post(url) {
    const r = await fetch(url, { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Accept: "application/json" }, body: "{}" }).catch(() => null);
    const data = r ? await r.json().catch(() => ({ ok: false })) : { ok: false, error: _("the table does not answer") };
    if (data.ok) show(data); else TT.flash(data.error || _("refused"), false);
  }

  $("dry-start").addEventListener("click", () => post("/admin/setup/dry-run/start"));
  $("dry-stop").addEventListener("click", () => post("/admin/setup/dry-run/stop"));

  async function poll() {
    const data = await TT.getJSON("/admin/setup/dry-run.json");
    if (data && data.ok) show(data);
    setTimeout(poll, 700);
  }
  poll();
})();
