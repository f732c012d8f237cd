// The card table (a Streamlit custom component, v2): seats around the pile, your seat at the
// bottom, tap cards to play them. Drawn from the data of tutor.tabletop.layout.table_data and
// tutor.tabletop.taps.tap_data. Every name and sentence is written with textContent, never as
// HTML. No network: nothing is fetched.

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_WORDS = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  10: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function cardName(code) {
  if (code === "??") return "unseen card";
  if (code === "JK") return "joker";
  return `${RANK_WORDS[code.slice(0, -1)] || code} of ${SUIT_WORDS[code.slice(-1)] || ""}`;
}

function pretty(code) {
  if (code === "??") return "🂠";
  if (code === "JK") return "JK";
  return code.slice(0, -1) + (SUITS[code.slice(-1)] || "");
}

// One card. opts: size ("" | "sm" | "xs"), tap (a function), place, down (a face-down card
// shown face up in the all-cards view), mark, hl, seen.
function card(code, opts = {}) {
  const tag = opts.tap ? "button" : "span";
  const c = el(tag, "ct-card" + (opts.size ? " " + opts.size : ""));
  let label = cardName(code);
  if (code === "??") {
    c.classList.add("back");
  } else if (code === "JK") {
    c.classList.add("joker");
    c.append(el("span", "r", "JK"), el("span", "s", "★"));
  } else {
    const suit = code.slice(-1);
    if (suit === "H" || suit === "D") c.classList.add("red");
    c.append(el("span", "r", code.slice(0, -1)), el("span", "s", SUITS[suit] || suit));
    if (!opts.size) c.dataset.s = SUITS[suit] || "";
  }
  if (opts.down) { c.classList.add("down-shown"); label += ", face down"; }
  if (opts.seen) { c.classList.add("seen"); label += ", seen going into this hand"; }
  if (opts.mark) { c.classList.add("mark"); label += ", one copy too many"; }
  if (opts.hl) c.classList.add("hl");
  if (opts.glow) { c.classList.add("glow"); label += ", the advisor's move"; }
  if (opts.extra) label += opts.extra;
  c.setAttribute("aria-label", label);
  c.title = label;
  if (!opts.tap) c.setAttribute("role", "img");
  if (opts.tap) {
    c.type = "button";
    c.dataset.place = opts.place;
    c.setAttribute("aria-pressed", "false");
    c.addEventListener("click", opts.tap);
  }
  return c;
}

// A row of unseen cards: a few backs, then a count.
function backs(n, size, most) {
  const row = el("span", "ct-fan");
  for (let i = 0; i < Math.min(n, most); i++) row.append(card("??", { size }));
  if (n > most) row.append(el("span", "ct-more", `+${n - most}`));
  return row;
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  let root = parentElement.querySelector(".ct-root");
  if (!root) {
    root = el("div", "ct-root");
    parentElement.appendChild(root);
  }
  // the selection survives a redraw of the same position (a reason fetched from Python)
  const keep = parentElement.__ctSel && parentElement.__ctSel.pos === data.pos ? parentElement.__ctSel.places : [];
  root.replaceChildren();
  draw(root, data, setTriggerValue, parentElement, keep);
}

function draw(root, d, trigger, host, keep) {
  const t = d.table;
  const n = t.seats.length;
  const bottom = t.bottom;
  const mode = d.mode || "view";
  const edit = mode === "edit";
  const changed = t.changed || {};
  const marks = new Set(t.marks || []);
  const felt = el("div", "ct-felt" + (d.compact ? " compact" : ""));
  felt.setAttribute("role", "group");
  felt.setAttribute("aria-label", "The card table");
  root.append(felt);

  // -- the other seats, in playing order from the bottom seat's left ----------------------
  const opps = el("div", "ct-opps");
  const order = [];
  for (let k = 1; k < n; k++) order.push((bottom + k) % n);
  order.forEach((s, j) => {
    if (j > 0) opps.append(el("span", "ct-flow", t.clockwise ? "→" : "←"));
    opps.append(seatBox(t, s, false, marks, changed, null));
  });
  felt.append(opps);

  // -- the middle: the pile fanned, the stock and the burned cards --------------------------
  const mid = el("div", "ct-mid");
  const pile = el("div", "ct-pile");
  pile.setAttribute("aria-label", "The pile");
  if (t.earlier) pile.append(el("span", "ct-earlier", `${t.earlier} earlier`));
  if (!t.pile.length) pile.append(el("span", "ct-empty", "empty pile"));
  t.pile.forEach((play, j) => {
    const g = el("div", "ct-play");
    if (j === t.pile.length - 1) g.classList.add("top");
    if (changed.play === play.i) g.classList.add("hl");
    const cards = el("div", "ct-playcards");
    play.cards.forEach((code, k) => {
      const c = card(code, { size: "sm", mark: marks.has(`p${play.i}c${k}`) });
      c.dataset.card = `pile ${play.i} ${code}`;
      cards.append(c);
    });
    g.dataset.zone = `pile ${play.i}`;
    g.dataset.name = `play ${play.i + 1} on the pile`;
    g.append(cards);
    let who = play.by || "";
    if (play.claim) who = (who ? who + ": " : "") + "says " + play.claim;
    g.append(el("span", "ct-by", who || " "));
    pile.append(g);
  });
  if (mode === "edit") {
    const add = el("div", "ct-play ct-newplay", "+ play");
    add.dataset.zone = "pile new";
    add.dataset.name = "a new play on top of the pile";
    pile.append(add);
  }
  const info = el("div", "ct-info");
  const dir = el("div", "ct-dir", t.clockwise ? "⟳ clockwise" : "⟲ counterclockwise");
  dir.title = "Which way play goes";
  info.append(dir);
  if (t.top) {
    const beat = el("div", "ct-beat");
    beat.append(el("span", "ct-k", "to play on: "), el("b", "", t.top));
    info.append(beat);
  }
  const side = el("div", "ct-side");
  const stock = el("div", "ct-stock" + (marks.has("stock") ? " mark" : ""));
  stock.dataset.zone = "stock";
  stock.dataset.name = "the stock";
  if (t.stock) {
    const top = card("??", { size: "sm" });
    top.dataset.card = "stock ??";
    stock.append(top);
  }
  stock.append(el("span", "ct-k", t.stock ? `stock ${t.stock}` : "stock empty"));
  side.append(stock);
  const burned = el("div", "ct-burned" + (changed.burned ? " hl" : ""));
  burned.append(el("span", "ct-k", `burned ${t.burned}`));
  side.append(burned);
  mid.append(pile, info, side);
  felt.append(mid);

  // -- the bottom seat: its table cards and its hand, tappable when it is to move ---------
  const selected = new Set();
  const tappable = mode !== "view" && t.turn === bottom;
  let bar = null;
  const onTap = (ev) => {
    const b = ev.currentTarget;
    const id = b.dataset.id;
    if (selected.has(id)) selected.delete(id); else selected.add(id);
    b.classList.toggle("sel", selected.has(id));
    b.setAttribute("aria-pressed", selected.has(id) ? "true" : "false");
    host.__ctSel = { pos: d.pos, places: [...selected] };
    refreshBar();
  };
  const me = seatBox(t, bottom, true, marks, changed, tappable ? onTap : null, new Set(d.glow || []));
  felt.append(me);
  // restore a kept selection
  if (tappable && keep.length) {
    me.querySelectorAll("button.ct-card").forEach((b) => {
      if (keep.includes(b.dataset.id)) {
        selected.add(b.dataset.id);
        b.classList.add("sel");
        b.setAttribute("aria-pressed", "true");
      }
    });
  }

  if (t.line) root.append(el("div", "ct-line", t.line));

  // -- the action bar: the moves the tapped cards form, and the moves that take no card ---
  function places() {
    return [...me.querySelectorAll("button.ct-card.sel")].map((b) => b.dataset.place);
  }
  function key(ps) { return [...ps].sort().join(" "); }
  function refreshBar() {
    if (!bar) return;
    bar.replaceChildren();
    const ps = places();
    const msg = el("div", "ct-msg");
    msg.setAttribute("role", "status");
    msg.setAttribute("aria-live", "polite");
    const row = el("div", "ct-buttons");
    if (mode === "play") {
      if (!ps.length) {
        msg.textContent = d.prompt || "Tap your cards to play them.";
      } else {
        const k = key(ps);
        const hits = (d.taps.moves || []).filter((m) => key(m.takes) === k);
        if (hits.length) {
          msg.textContent = hits.length > 1 ? "These cards can be played in more than one way:" : "";
          hits.forEach((m) => row.append(button(m.label, "primary", () => trigger("move", m.id))));
        } else {
          const why = (d.taps.why || {})[k] || (d.why_more || {})[k];
          msg.classList.add("no");
          msg.textContent = why ? "Not a legal move: " + why : "No legal move takes exactly these cards.";
          if (!why) row.append(button("Why not?", "", () => trigger("why", k)));
        }
        row.append(button("Clear", "quiet", clear));
      }
      (d.taps.buttons || []).forEach((m) => row.append(button(m.label, "", () => trigger("move", m.id))));
    } else if (mode === "ask") {
      const text = askText(ps);
      if (!ps.length) {
        msg.textContent = d.prompt || "Tap the cards of the player to move to ask about playing them.";
      } else if (text) {
        row.append(button("Ask: " + askWords(ps), "primary", () => trigger("ask", text)));
        row.append(button("Clear", "quiet", clear));
      } else {
        msg.textContent = "Turn over one face-down card at a time, on its own.";
        row.append(button("Clear", "quiet", clear));
      }
      (d.taps.buttons || []).forEach((m) => row.append(button("Ask: " + m.label, "", () => trigger("ask", m.id))));
    }
    bar.append(msg, row);
  }
  function clear() {
    me.querySelectorAll("button.ct-card.sel").forEach((b) => {
      b.classList.remove("sel");
      b.setAttribute("aria-pressed", "false");
    });
    selected.clear();
    host.__ctSel = { pos: d.pos, places: [] };
    refreshBar();
  }
  if (mode !== "view" && mode !== "edit" && d.taps) {
    bar = el("div", "ct-bar");
    root.append(bar);
    if (tappable) refreshBar();
    else bar.append(el("div", "ct-msg", d.waiting || ""));
  }
  if (edit) editing(root, felt, d, trigger, host);
}

// -- building a table by tapping: choose a zone, add cards from the palette, tap a card to take it out
function editing(root, felt, d, trigger, host) {
  const bar = el("div", "ct-bar");
  root.append(bar);
  let zone = host.__ctZone && felt.querySelector(`[data-zone="${host.__ctZone}"]`) ? host.__ctZone : null;
  const choose = (z) => {
    zone = z;
    host.__ctZone = z;
    felt.querySelectorAll(".ct-target").forEach((e) => e.classList.toggle("chosen", e.dataset.zone === z));
    palette();
  };
  felt.querySelectorAll("[data-zone]").forEach((z) => {
    z.classList.add("ct-target");
    z.setAttribute("role", "button");
    z.tabIndex = 0;
    z.setAttribute("aria-label", "Choose " + z.dataset.name);
    z.addEventListener("click", (ev) => {
      const c = ev.target.closest("[data-card]");
      const zoneOf = (code) => code.split(" ").slice(0, 2).join(" ");
      if (c && zone && zoneOf(c.dataset.card) === zone) { trigger("edit", "remove " + c.dataset.card); return; }
      if (c && zone && zone.startsWith("up ") && c.dataset.card.startsWith("down ") && zoneOf(c.dataset.card) === zone.replace("up", "down")) {
        trigger("edit", "remove " + c.dataset.card); return;
      }
      ev.stopPropagation();
      choose(z.dataset.zone);
    });
    z.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); choose(z.dataset.zone); } });
  });
  felt.querySelectorAll(".ct-head[data-seat]").forEach((h) => {
    const b = button("make to move", "quiet small", (ev) => { ev.stopPropagation(); trigger("edit", "turn " + h.dataset.seat); });
    b.setAttribute("aria-label", "Make this player the one to move");
    if (Number(h.dataset.seat) !== d.table.turn) h.append(b);
  });
  function palette() {
    bar.replaceChildren();
    if (!zone) {
      bar.append(el("div", "ct-msg", "Tap a hand, the table cards before a player, the pile (+ play) or the stock; "
        + "then tap cards to add them. Tap a card in the chosen place to take it out."));
      return;
    }
    const z = felt.querySelector(`[data-zone="${zone}"]`);
    let where = z ? z.dataset.name : zone;
    const msg = el("div", "ct-msg");
    msg.setAttribute("role", "status");
    bar.append(msg);
    let target = zone;
    if (zone.startsWith("up ")) {
      const which = el("div", "ct-buttons");
      const seat = zone.split(" ")[1];
      const face = host.__ctFace || "up";
      target = `${face} ${seat}`;
      ["up", "down"].forEach((f) => which.append(button(f === "up" ? "face up" : "face down", f === face ? "primary small" : "small",
        () => { host.__ctFace = f; palette(); })));
      bar.append(which);
      where = where.replace("table cards", face === "up" ? "face-up cards" : "face-down cards");
    }
    msg.textContent = `Adding to ${where}: tap a card (a card there already: tap it on the table to take it out).`;
    const grid = el("div", "ct-palette");
    ["S", "H", "D", "C"].forEach((suit) => {
      const row = el("div", "ct-prow");
      ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"].forEach((r) => {
        const code = r + suit;
        const c = card(code, { size: "sm", tap: () => trigger("edit", `add ${target} ${code}`), place: code });
        row.append(c);
      });
      grid.append(row);
    });
    bar.append(grid);
    const more = el("div", "ct-buttons");
    if (!target.startsWith("up ") && !target.startsWith("pile ")) {
      more.append(button("+ an unseen card", "", () => trigger("edit", `add ${target} ??`)));
    }
    if (d.jokers) more.append(button("+ a joker", "", () => trigger("edit", `add ${target} JK`)));
    more.append(button("Done", "quiet", () => choose(null)));
    bar.append(more);
  }
  if (zone) choose(zone); else palette();
}

function askText(ps) {
  const downs = ps.filter((p) => p.startsWith("d:"));
  if (downs.length) return ps.length === 1 ? "flip " + downs[0].slice(2) : "";
  return "play " + ps.map((p) => p.slice(2)).join(" ");
}

function askWords(ps) {
  const downs = ps.filter((p) => p.startsWith("d:"));
  if (downs.length) return "turn over face-down card " + downs[0].slice(2);
  return "play " + ps.map((p) => pretty(p.slice(2))).join(" ");
}

function button(label, kind, fn) {
  const b = el("button", "ct-btn" + (kind ? " " + kind : ""), label);
  b.type = "button";
  b.addEventListener("click", fn);
  return b;
}

// One seat: name and marks, its hand, its face-up cards on its face-down cards.
function seatBox(t, s, isBottom, marks, changed, tap, glow) {
  const p = t.seats[s];
  const box = el("div", "ct-seat" + (isBottom ? " me" : ""));
  if (t.turn === s) box.classList.add("turn");
  if (p.out) box.classList.add("out");
  if (changed.seat === s) box.classList.add("moved");
  box.setAttribute("role", "group");
  const head = el("div", "ct-head");
  head.append(el("span", "ct-name", p.name));
  if (t.turn === s) head.append(el("span", "ct-badge turn", t.setup ? "▶ arranging" : "▶ to move"));
  if (p.out) head.append(el("span", "ct-badge", "out"));
  if (changed.seat === s && changed.took) head.append(el("span", "ct-badge took", "took the pile"));
  box.setAttribute("aria-label", `${p.name}${t.turn === s ? ", to move" : ""}${p.out ? ", out" : ""}`);
  box.append(head);
  const size = isBottom ? "" : "sm";
  let serial = 0;
  const tapOpts = (place) => (tap ? { tap, place } : { glow: glow && glow.has(place) });
  const idOf = (b) => { if (tap && b.tagName === "BUTTON") b.dataset.id = `c${serial++}`; return b; };

  // face-down cards with face-up cards on top
  const tbl = el("div", "ct-table");
  const downs = p.down.length;
  const ups = p.up.length;
  for (let i = 0; i < Math.max(downs, ups); i++) {
    const slot = el("div", "ct-slot");
    if (i < downs) {
      const code = p.down[i];
      const opts = { size, down: code !== "??", mark: marks.has(`s${s}d${i}`), extra: `, face-down card ${i + 1}` };
      // a face-down card under a face-up card cannot be turned over yet: not tappable
      const down = idOf(card(code, i < ups ? opts : { ...opts, ...tapOpts(`d:${i + 1}`) }));
      down.dataset.card = `down ${s} ${code}`;
      slot.append(down);
    }
    if (i < ups) {
      const stack = el("div", "ct-up" + (i < downs ? " on" : ""));
      let flat = 0;
      for (let j = 0; j < i; j++) flat += p.up[j].length;
      p.up[i].forEach((code, k) => {
        const up = idOf(card(code, { size, mark: marks.has(`s${s}u${flat + k}`), ...tapOpts(`u:${code}`) }));
        up.dataset.card = `up ${s} ${code}`;
        stack.append(up);
      });
      slot.append(stack);
    }
    tbl.append(slot);
  }
  if (!downs && !ups) tbl.append(el("span", "ct-none", "no table cards"));
  tbl.dataset.zone = `up ${s}`;
  tbl.dataset.name = `${p.name}'s table cards`;

  // the hand
  const hand = el("div", "ct-hand");
  const unseen = p.hand.filter((c) => c === "??").length;
  if (!p.hand.length) {
    hand.append(el("span", "ct-none", "no hand"));
  } else if (!isBottom && unseen === p.hand.length) {
    const fan = backs(unseen, "sm", 3);
    fan.dataset.card = `hand ${s} ??`;
    hand.append(fan, el("span", "ct-count", `${unseen} in hand`));
  } else {
    p.hand.forEach((code, i) => {
      if (code === "??" && !isBottom) return;
      const opts = { size, seen: i < (p.seen || 0), mark: marks.has(`s${s}h${i}`) };
      const c = idOf(card(code, code === "??" ? opts : { ...opts, ...tapOpts(`h:${code}`) }));
      c.dataset.card = `hand ${s} ${code}`;
      hand.append(c);
    });
    const rest = isBottom ? 0 : unseen;
    if (rest) hand.append(backs(rest, "sm", 2));
    hand.append(el("span", "ct-count", `${p.hand.length} in hand`));
    if (p.seen) hand.append(el("span", "ct-seen", `${p.seen} seen going in`));  // its own line
  }
  hand.dataset.zone = `hand ${s}`;
  hand.dataset.name = `${p.name}'s hand`;
  head.dataset.seat = String(s);
  if (isBottom) box.append(tbl, hand); else box.append(hand, tbl);
  return box;
}
