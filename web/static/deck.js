/* The set-up page's deck teaching: which card to lay next, the card the camera took (keep it or
   take it again), the progress (kept on the table: a reload or a restart picks up where it
   stood), redo a card, then a check that reads any cards laid down. */
"use strict";

(() => {
  const { el, _, ngettext } = TT;
  const $ = (id) => document.getElementById(id);
  if (!$("deck-panel")) return;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  let busy = false, last = null;

  function showCheck(check) {
    if (!check) { $("deck-check-status").textContent = ""; TT.fill($("deck-check-cards")); return; }
    const parts = [ngettext("{n} card face up", "{n} cards face up", check.seen), ngettext("{n} read", "{n} read", check.read)];
    if (check.face_down) parts.push(ngettext("{n} face down (not read)", "{n} face down (not read)", check.face_down));
    parts.push(check.profile ? ngettext("with the deck taught ({n} card)", "with the deck taught ({n} cards)", check.profile) : _("with no deck taught"));
    $("deck-check-status").textContent = `${parts.join(", ")}.`;
    TT.fill($("deck-check-cards"), ...check.cards.map((c) => el("li", { class: c.card ? "ok" : "fix", "data-card": c.card || "" },
      el("b", { text: c.card || "?" }), el("span", { text: ` ${c.name}` }))));
  }

  function show(data) {
    last = data;
    for (const b of document.querySelectorAll("#deck-panel .demo-only")) b.hidden = !data.demo;
    $("deck-bar").max = data.total;
    $("deck-bar").value = data.done;
    const saved = !data.saved ? ""
      : " " + (data.in_use ? ngettext("The saved deck of {n} card is in use.", "The saved deck of {n} cards is in use.", data.saved)
        : ngettext("The saved deck of {n} card is kept.", "The saved deck of {n} cards is kept.", data.saved));
    $("deck-progress").textContent = (data.complete ? _("The whole deck is taught ({done} of {total}).", { done: data.done, total: data.total })
      : ngettext("{n} of {total} cards taught.", "{n} of {total} cards taught.", data.done, { total: data.total })) + saved;
    $("deck-note").hidden = !data.note;
    $("deck-note").textContent = data.note || "";
    const teaching = data.state === "teaching";
    $("deck-idle").hidden = teaching;
    $("deck-start").textContent = data.done && !data.complete ? _("Go on teaching ({done} of {total} kept)", { done: data.done, total: data.total }) : data.complete ? _("Teach again (redo cards)") : _("Teach the deck");
    $("deck-teaching").hidden = !teaching;
    const next = data.next;
    $("deck-ask").textContent = !next ? _("Every card is taught: the reader uses this deck now. Check it below, or tap a card to take it again.")
      : data.pending ? _("Is this {card}?", { card: data.pending.name }) : _("Lay {card} ({code}) face up, alone, in the middle of the table, then tap Capture.", { card: next.name, code: next.card });
    $("deck-ask").dataset.card = next ? next.card : "";
    $("deck-capture-row").hidden = !next;
    $("deck-capture").disabled = !next || !!data.pending;
    $("deck-lay").disabled = !next || !!data.pending;
    const p = data.pending;
    $("deck-pending").hidden = !p;
    $("deck-pending").style.display = p ? "flex" : "none";
    if (p) {
      const src = `/admin/setup/deck/crop.jpg?n=${p.crop}`;
      if (!$("deck-crop").src.endsWith(src)) $("deck-crop").src = src;
      $("deck-verdict").textContent = p.agrees ? _("The camera took {card}: the reader alone reads it so too.", { card: p.name })
        : p.read ? _("The camera took a card the reader alone reads as {read}: is it really {card}? Keep it if it is (teaching it is what this is for), else take it again.", { read: p.read_name, card: p.name })
        : _("The camera took a card the reader alone cannot name: keep it if it is {card}.", { card: p.name });
    }
    TT.fill($("deck-cards"), ...data.enrolled.map((card) => el("button", { class: "btn", "data-redo": card, text: card })));
    showCheck(data.check);
  }

  async function post(url, body) {
    if (busy) return null;
    busy = true;
    try {
      const r = await fetch(url, { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Accept: "application/json" }, body: JSON.stringify(body || {}) }).catch(() => null);
      const data = r ? await r.json().catch(() => ({ ok: false })) : { ok: false, error: _("the table does not answer") };
      if (!data.ok) { TT.flash(data.error || _("refused"), false); return null; }
      return data;
    } finally { busy = false; }
  }

  async function step(name, body) {
    const data = await post(`/admin/setup/deck/${name}`, body);
    if (data) show(data);
    return data;
  }

  $("deck-start").addEventListener("click", () => step("start"));
  $("deck-stop").addEventListener("click", () => step("stop"));
  $("deck-restart").addEventListener("click", () => { if (confirm(_("Forget every card taught so far?"))) step("restart"); });
  $("deck-capture").addEventListener("click", () => step("capture"));
  $("deck-keep").addEventListener("click", () => step("keep"));
  $("deck-retake").addEventListener("click", () => step("retake"));
  $("deck-lay").addEventListener("click", () => step("lay"));
  $("deck-cards").addEventListener("click", (e) => {
    const card = e.target.dataset && e.target.dataset.redo;
    if (card) step("redo", { card });
  });
  $("deck-check").addEventListener("click", async () => {
    $("deck-check-status").textContent = _("Reading…");
    const data = await post("/admin/setup/deck/check");
    if (data) showCheck(data); else showCheck(last && last.check);
  });
  $("deck-lay-check").addEventListener("click", async () => {
    const data = await post("/admin/setup/deck/lay-check");
    if (data) TT.flash(_("Laid {cards} on the demo's table: tap Read them.", { cards: data.laid.join(" ") }), true);
  });

  async function poll() {
    if (!busy) {
      const data = await TT.getJSON("/admin/setup/deck.json");
      if (data && data.ok && !busy) show(data);
    }
    setTimeout(poll, 1500);
  }
  poll();
})();
