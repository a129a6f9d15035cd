/* The camera page: the latest frame, refreshed every second, with the zones and what was read
   drawn over it in normalised coordinates. */
"use strict";

(() => {
  const { el, svg, _ } = TT;
  const $ = (id) => document.getElementById(id);
  let aspect = 16 / 9;

  function label(c) {
    if (c.hidden) return _("face up (hidden until the showdown)");
    if (c.face_up) return c.card || _("face up, unread");
    return c.mark ? _("back {mark}", { mark: c.mark }) : _("face down");
  }

  function draw(view) {
    if (view.size) {
      aspect = view.size[0] / view.size[1];
      $("stage").style.aspectRatio = `${view.size[0]} / ${view.size[1]}`;
    }
    const overlay = $("overlay"), nodes = [];
    const stroke = 1.5 / 800;
    // An annotated frame has the zones and the cards drawn on it already: no second drawing.
    const drawn = view.annotated && view.frame !== null;
    for (const [name, zone] of drawn ? [] : Object.entries(view.zones || {})) {
      nodes.push(svg("polygon", { points: zone.map((p) => p.join(",")).join(" "), fill: "#ffca2812", stroke: "#ffca28", "stroke-width": stroke, "vector-effect": "non-scaling-stroke" }));
      const [x, y] = zone[0];
      nodes.push(svg("text", { x: x + 0.004, y: y + 0.03 * aspect / 1.8, fill: "#ffca28", "font-size": 0.025, text: name }));
    }
    for (const c of drawn ? [] : view.cards || []) {
      const colour = c.hidden ? "#ef5350" : c.face_up ? "#66bb6a" : "#4fc3f7";
      nodes.push(svg("polygon", { points: c.corners.map((p) => p.join(",")).join(" "), fill: c.hidden ? "#000c" : "none", stroke: colour, "stroke-width": 2, "vector-effect": "non-scaling-stroke" }));
      const [x, y] = c.corners[0];
      nodes.push(svg("text", { x, y: Math.max(0.03, y - 0.006), fill: colour, "font-size": 0.028, "font-weight": 700, text: label(c) }));
    }
    TT.fill(overlay, ...nodes);
    $("frame").hidden = view.frame === null;
    $("camera-status").textContent = !view.camera ? (view.cards.length || view.view_frame !== null
      ? _("The camera's pictures are not shared with this page: what it read is drawn over the zones.")
      : _("No camera on this table (cards are entered on the host page)."))
      : view.frame === null ? _("Waiting for the first frame…") : `${view.view_frame ? _("frame {frame}, read at frame {read}", { frame: view.frame, read: view.view_frame }) : _("frame {frame}", { frame: view.frame })}${view.status && !view.status.ok ? ` · ${view.status.message}` : ""}`;
    TT.fill($("conflicts"), ...(view.conflicts || []).map((c) => el("li", { text: _("⚠ {reason}", { reason: `${c.zone}: ${c.message}` }) })));
    const rows = [el("tr", {}, el("th", { text: _("Zone") }), el("th", { text: _("Read") }), el("th", { text: _("Confidence") }))];
    for (const c of view.cards || []) rows.push(el("tr", {}, el("td", { text: c.zone || _("outside") }), el("td", { text: label(c) }), el("td", { class: "num", text: `${Math.round(c.confidence * 100)} %` })));
    TT.fill($("cards"), ...rows);
  }

  async function refresh() {
    const view = await TT.getJSON("/admin/camera/view.json");
    if (view) {
      draw(view);
      if (view.frame !== null) $("frame").src = `/admin/camera/frame.jpg?f=${view.frame}`;
    }
    setTimeout(refresh, 1000);
  }
  refresh();
})();
