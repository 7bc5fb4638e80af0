// Buddy's face as the child sees it, drawn as SVG from FaceState (the mood the board
// shows, its intensity, talking and the conversation state). One row per mood of the
// face board (face-protocol.md mood ids 0-12); intensity moves each feature from the
// neutral face toward the mood's full expression. Only DOM methods are used: no HTML.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  // eyeOpen: eye height (1 = round), tilt: inner-brow slant (+ angry, - sad),
  // smile: mouth curve (-1 frown .. 1 smile), open: mouth opening, color: eye colour,
  // mark: an extra drawn beside the eyes.
  const MOODS = {
    neutral:   { eyeOpen: 1.0, tilt: 0.0,  smile: 0.15, open: 0.0, color: "#7fd4ff", mark: "" },
    happy:     { eyeOpen: 0.7, tilt: 0.0,  smile: 1.0,  open: 0.2, color: "#7fe0a8", mark: "" },
    excited:   { eyeOpen: 1.15, tilt: 0.0, smile: 1.0,  open: 0.7, color: "#ffd75e", mark: "sparkle" },
    curious:   { eyeOpen: 1.1, tilt: -0.2, smile: 0.3,  open: 0.1, color: "#8fb8ff", mark: "" },
    sad:       { eyeOpen: 0.75, tilt: -0.6, smile: -0.8, open: 0.0, color: "#6f9bd8", mark: "tear" },
    scared:    { eyeOpen: 1.3, tilt: -0.4, smile: -0.4, open: 0.4, color: "#c6b3ff", mark: "" },
    angry:     { eyeOpen: 0.6, tilt: 0.7,  smile: -0.6, open: 0.1, color: "#ff7a6b", mark: "" },
    surprised: { eyeOpen: 1.35, tilt: 0.0, smile: 0.0,  open: 0.9, color: "#ffe08a", mark: "" },
    sleepy:    { eyeOpen: 0.15, tilt: 0.0, smile: 0.05, open: 0.0, color: "#9aa7c7", mark: "zzz" },
    love:      { eyeOpen: 0.8, tilt: 0.0,  smile: 0.9,  open: 0.1, color: "#ff8fc8", mark: "heart" },
    silly:     { eyeOpen: 0.9, tilt: 0.2,  smile: 0.8,  open: 0.5, color: "#b6f07a", mark: "tongue" },
    thinking:  { eyeOpen: 0.85, tilt: -0.1, smile: 0.0, open: 0.0, color: "#a9c7ff", mark: "dots" },
    confused:  { eyeOpen: 1.0, tilt: -0.3, smile: -0.2, open: 0.0, color: "#d0b0ff", mark: "question" },
  };
  const CONV_GLOW = {
    idle: "", attention: "#ffffff", listening: "#4fc3ff", ptt: "#4fc3ff",
    thinking: "#b08cff", speaking: "#6fe39a", error: "#ff5a5a", done: "",
  };

  function el(name, attrs) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    return node;
  }
  function mix(a, b, t) { return a + (b - a) * t; }

  function draw(container, face) {
    const moodName = MOODS[face.mood] ? face.mood : "neutral";
    const full = MOODS[moodName];
    const base = MOODS.neutral;
    // Intensity 0 still shows the mood a little: the board shows the mood at any intensity.
    const t = 0.35 + 0.65 * Math.max(0, Math.min(1, Number(face.intensity) || 0));
    const p = {
      eyeOpen: mix(base.eyeOpen, full.eyeOpen, t),
      tilt: mix(base.tilt, full.tilt, t),
      smile: mix(base.smile, full.smile, t),
      open: mix(base.open, full.open, t),
    };
    const svg = el("svg", { viewBox: "0 0 320 240", role: "img" });
    svg.appendChild(el("rect", { x: 0, y: 0, width: 320, height: 240, rx: 28, fill: "#10131c" }));
    const glow = CONV_GLOW[face.conv_state] || "";
    if (glow) {
      svg.appendChild(el("rect", { x: 4, y: 4, width: 312, height: 232, rx: 26, fill: "none",
        stroke: glow, "stroke-width": 6, opacity: 0.8, class: "glow" }));
    }
    const eyeH = 64 * p.eyeOpen;
    for (const side of [-1, 1]) {
      const cx = 160 + side * 62;
      const g = el("g", { transform: `rotate(${side * p.tilt * 18} ${cx} 96)` });
      g.appendChild(el("rect", { x: cx - 26, y: 96 - eyeH / 2, width: 52, height: Math.max(6, eyeH),
        rx: Math.min(26, Math.max(3, eyeH / 2)), fill: full.color, class: "eye" }));
      if (Math.abs(p.tilt) > 0.15) {     // a brow line shows the slant
        const y = 96 - Math.max(eyeH / 2, 10) - 14;
        g.appendChild(el("line", { x1: cx - 28, y1: y + side * p.tilt * 10, x2: cx + 28,
          y2: y - side * p.tilt * 10, stroke: full.color, "stroke-width": 6,
          "stroke-linecap": "round" }));
      }
      svg.appendChild(g);
    }
    const talking = Boolean(face.talking);
    const mouthOpen = talking ? Math.max(p.open, 0.45) : p.open;
    const mw = 70, my = 172, curve = p.smile * 26;
    const mouth = el("path", {
      d: `M ${160 - mw / 2} ${my} Q 160 ${my + curve} ${160 + mw / 2} ${my}` +
         (mouthOpen > 0.05 ? ` Q 160 ${my + curve + 30 * mouthOpen} ${160 - mw / 2} ${my} Z` : ""),
      fill: mouthOpen > 0.05 ? "#2a0f18" : "none", stroke: full.color, "stroke-width": 7,
      "stroke-linecap": "round", "stroke-linejoin": "round",
      class: talking ? "mouth talking" : "mouth" });
    svg.appendChild(mouth);
    const mark = full.mark;
    const text = (s, x, y, size) => {
      const node = el("text", { x, y, "font-size": size, fill: full.color,
        "font-family": "sans-serif", "font-weight": "bold" });
      node.textContent = s;
      svg.appendChild(node);
    };
    if (mark === "zzz") text("z z", 238, 48, 26);
    if (mark === "question") text("?", 262, 70, 48);
    if (mark === "dots") text("…", 246, 60, 40);
    if (mark === "heart") text("♥", 254, 64, 40);
    if (mark === "sparkle") text("✦", 258, 58, 30);
    if (mark === "tear") svg.appendChild(el("ellipse", { cx: 108, cy: 136, rx: 6, ry: 10, fill: "#6fb6ff" }));
    if (mark === "tongue") svg.appendChild(el("ellipse", { cx: 172, cy: my + 14, rx: 12, ry: 10, fill: "#ff7fa0" }));
    container.replaceChildren(svg);
    container.dataset.mood = moodName;
    container.dataset.talking = String(talking);
    container.dataset.conv = face.conv_state || "idle";
    // The last draws with their wall-clock time (for the dashboard benchmark and tests:
    // face/state's stamp to the face on screen).
    history.push({ mood: moodName, talking: talking, conv: face.conv_state, wall_ms: Date.now() });
    if (history.length > 500) history.shift();
  }
  const history = [];

  window.BuddyFace = { draw: draw, moods: Object.keys(MOODS), history: history };
})();
