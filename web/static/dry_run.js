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
    done: _("The hand is over: here is what the camera saw."),
  };

  const STREET = { preflop: _("Pre-flop"), flop: _("Flop"), turn: _("Turn"), river: _("River"), showdown: _("Showdown") };

  function cardText(c) { return !c.face_up ? _("face down") : c.card || _("unread"); }

  function seatText(s) {
    const parts = [ngettext("{n} card", "{n} cards", s.cards)];
    if (s.face_up) parts.push(_("{up} face up, {read} read", { up: s.face_up, read: s.read }));
    if (s.marked) parts.push(ngettext("{n} mark read", "{n} marks read", s.marked));
    return _("{label}: {parts}", { label: s.label, parts: parts.join(", ") });
  }

  function show(data) {
    $("dry-status").textContent = STATES[data.state] || data.state;
    TT.fill($("dry-streets"), ...data.streets.map((s) => el("div", { class: "panel dry-street", "data-street": s.street },
      el("h3", { style: "font-size:.95rem;margin:.2em 0", text: _("{street} (frame {frame})", { street: STREET[s.street] || s.street, frame: s.frame }) }),
      el("p", { class: "dry-board", style: "margin:.2em 0", text: s.board.length ? _("Board: {cards}", { cards: s.board.map(cardText).join(" ") }) : _("Board: none yet") }),
      el("p", { class: "dry-seats", style: "margin:.2em 0", text: s.seats.map(seatText).join(" · ") }),
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
