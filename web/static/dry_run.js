/* The set-up page's dry run: start, then follow street by street what the camera saw while the
   host deals one hand. */
"use strict";

(() => {
  const { el, _, ngettext } = TT;
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
    return _("{label}: {parts}", { label: s.label, parts: parts.join(", ") });
  }

  /** What the game would do on the street: blinds, who acts first, the pot, the winners. */
  const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1);

  function gameText(g) {
    if (!g) return [];
    const lines = [];
    if (g.blinds && g.blinds.length) lines.push(`Button: ${g.button}. Blinds posted: ${g.blinds.map((b) => `${b.seat} ${b.kind} blind ${b.amount}`).join(", ")}.`);
    if (g.acts_first) lines.push(`${cap(g.acts_first)} acts first; pot ${g.pot}${g.pot_after !== g.pot ? `, ${g.pot_after} once everyone calls` : ""}.`);
    if (g.winners && g.winners.length) lines.push(...g.winners.map((w) => `${cap(w.seat)} wins ${w.amount}${w.hand ? `: ${w.hand}` : ""}.`));
    if (g.waiting) lines.push(`The game waits: ${g.waiting}.`);
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
