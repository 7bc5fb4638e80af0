// The parent page. Every value from the robot is put into the page with textContent:
// memory tags and names come from a child or the LLM and are never read as HTML.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let csrf = "";
  let source = null;
  let pendingForget = null;   // {kind: "everything"} or {kind: "child", child}
  let lastAlerts = [];        // the alerts on the page (forget everything offers to clear them)
  let editing = null;         // the child being edited, or null while adding
  let removing = null;        // the child a removal waits to be confirmed for
  // Where Buddy's answers come from (the LLM bridge's health), in words.
  const THINKING_WITH = {
    server: "the home server",
    rules_no_server: "its own rules (no home server is set up)",
    rules_server_down: "its own rules (the home server is not answering)",
    unknown: "not known yet",
  };

  function show(id, on) { $(id).hidden = !on; }
  function text(id, value) { $(id).textContent = value; }
  function node(tag, cls, value) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (value !== undefined) n.textContent = String(value);
    return n;
  }
  // A table cell that names its column: on a phone the tables are stacked, one card per
  // row, each value under its column's name (nothing is cut off at 390 px).
  function cell(label, value) {
    const td = node("td", "", value);
    td.dataset.label = label;
    return td;
  }
  const MIX_WORDS = { positive: "was cheerful", neutral: "was calm", negative: "was sad or worried" };
  function minutes(s) {
    const m = Math.round(s / 60);
    return m < 1 ? "under a minute" : `${m} min`;
  }
  function when(t) {
    const d = new Date(t * 1000);
    return d.toLocaleString([], { weekday: "short", hour: "2-digit", minute: "2-digit" });
  }
  function day(t) { return new Date(t * 1000).toLocaleDateString(); }

  async function api(path, body) {
    const init = body === undefined ? { credentials: "same-origin" } : {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body),
    };
    const response = await fetch(path, init);
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    if (response.status === 401) { start(); }
    return { ok: response.ok, status: response.status, data: data };
  }

  async function start() {
    if (source) { source.close(); source = null; }
    const r = await api("/api/state");
    const s = r.data;
    show("household-problem", Boolean(s.household_problem));
    text("household-problem-text", s.household_problem || "");
    show("no-pin", !s.pin_set && !s.household_problem);
    show("login", s.pin_set && !s.logged_in);
    show("panels", Boolean(s.logged_in));
    show("logout", Boolean(s.logged_in));
    text("set-pin-command", s.set_pin_command || "buddy parent set-pin");
    if (s.logged_in) {
      csrf = s.csrf;
      const o = await api("/api/overview");
      if (o.ok) render(o.data);
      loadMemories();
      listen();
    } else {
      setConnection("");
    }
  }

  function setConnection(state) {
    const c = $("connection");
    c.textContent = state === "live" ? "live" : state === "lost" ? "reconnecting…" : "";
    c.dataset.state = state;
  }

  function listen() {
    source = new EventSource("/api/events");
    source.onopen = () => setConnection("live");
    source.onmessage = (e) => { setConnection("live"); render(JSON.parse(e.data)); };
    source.addEventListener("logout", () => start());
    source.onerror = () => setConnection("lost");
  }

  function render(o) {
    renderHousehold(o.household || []);
    renderNow(o.now);
    renderUsage(o.usage);
    renderSessions(o.sessions);
    renderAlerts(o.alerts);
    renderConsent(o.consent, o.children);
  }

  function renderNow(now) {
    window.BuddyFace.draw($("face"), now.face);
    text("now-activity", now.activity);
    text("now-mood", now.mood_words);
    const f = now.face;
    let shows = f.connected ? f.mood : `${f.mood} (face board not connected)`;
    if (f.mood_meant && f.mood_meant !== f.mood) shows += ` (meant: ${f.mood_meant})`;
    if (f.talking) shows += ", talking";
    text("now-face", shows);
    text("now-layer", THINKING_WITH[now.thinking_with] || THINKING_WITH.unknown);
  }

  function bar(id, used, limit) {
    const pct = limit > 0 ? Math.min(100, (100 * used) / limit) : 0;
    const fill = $(id);
    fill.style.width = `${pct}%`;
    fill.classList.toggle("full", pct >= 100);
  }

  function renderUsage(u) {
    show("limits-form", Boolean(u.can_lower));
    if (!u.known) {
      text("daily-text", "not known yet");
      text("session-text", "not known yet");
      return;
    }
    text("daily-text", `${minutes(u.daily_s)} of ${minutes(u.daily_limit_s)}`);
    text("session-text", `${minutes(u.session_s)} of ${minutes(u.session_limit_s)}`);
    bar("daily-bar", u.daily_s, u.daily_limit_s);
    bar("session-bar", u.session_s, u.session_limit_s);
  }

  function renderSessions(sessions) {
    const body = $("sessions").tBodies[0];
    const rows = sessions.slice().reverse().map((s) => {
      const tr = node("tr");
      tr.appendChild(cell("Started", when(s.started)));
      tr.appendChild(cell("Length", minutes(s.length_s)));
      tr.appendChild(cell("Turns", s.turns));
      tr.appendChild(cell("How it ended", s.open ? "talking now" : s.end_reason));
      const td = cell("Buddy's mood");
      const mixBar = node("div", "mix");
      for (const cls of ["positive", "neutral", "negative"]) {
        const part = node("span", `swatch-bar ${cls}`);
        part.style.width = `${Math.round(100 * (s.mood_mix[cls] || 0))}%`;
        part.title = `Buddy ${MIX_WORDS[cls]}: ${Math.round(100 * (s.mood_mix[cls] || 0))}%`;
        mixBar.appendChild(part);
      }
      td.appendChild(mixBar);
      tr.appendChild(td);
      return tr;
    });
    body.replaceChildren(...rows);
    show("sessions-empty", rows.length === 0);
  }

  function renderAlerts(alerts) {
    lastAlerts = alerts;
    const list = $("alerts");
    const items = alerts.map((a) => {
      const li = node("li", a.distress ? "alert distress" : "alert");
      if (a.acknowledged) li.classList.add("acknowledged");
      li.appendChild(node("span", "time", when(a.time)));
      li.appendChild(node("span", "what", a.what || "Buddy followed one of its safety rules"));
      if (a.sentence) li.appendChild(node("span", "sentence", a.sentence));
      if (a.distress && !a.acknowledged) {
        const b = node("button", "ack", "Acknowledge");
        b.addEventListener("click", async () => {
          const r = await api("/api/alerts/acknowledge", { alert_id: a.alert_id });
          if (!r.ok) b.textContent = r.data.message || r.data.error || "refused";
        });
        li.appendChild(b);
      }
      return li;
    });
    list.replaceChildren(...items);
    show("alerts-empty", items.length === 0);
  }

  function renderConsent(records, children) {
    const body = $("consent").tBodies[0];
    const byChild = new Map();
    for (const c of children) byChild.set(`${c}\u0000memory`, { child: c, scope: "memory", state: "none" });
    for (const r of records) byChild.set(`${r.child}\u0000${r.scope}`, r);
    const rows = [...byChild.values()].map((r) => {
      const tr = node("tr");
      tr.appendChild(cell("Child", r.child));
      tr.appendChild(cell("What", r.scope));
      const st = cell("State", r.state);
      st.className = `state ${r.state}`;
      tr.appendChild(st);
      const td = cell("");
      const granted = r.state === "granted";
      const b = node("button", granted ? "" : "primary", granted ? "Revoke" : "Grant");
      b.addEventListener("click", async () => {
        const res = await api("/api/consent", { child: r.child, scope: r.scope, grant: !granted });
        text("consent-message", res.data.message || res.data.error || "");
      });
      td.appendChild(b);
      if (r.scope === "memory") {
        const f = node("button", "link", "Forget this child…");
        f.addEventListener("click", () => askForget({ kind: "child", child: r.child }));
        td.appendChild(f);
      }
      tr.appendChild(td);
      return tr;
    });
    body.replaceChildren(...rows);
    show("consent-empty", rows.length === 0);
  }

  async function loadMemories() {
    const r = await api("/api/memories");
    const box = $("memories");
    if (!r.ok) { text("memories-message", r.data.error || "could not load memories"); return; }
    const groups = new Map();
    for (const m of r.data.memories) {
      const key = m.child || "Everyone";
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(m);
    }
    const parts = [];
    for (const [child, entries] of groups) {
      const section = node("div", "memory-group");
      section.appendChild(node("h3", "", child));
      const table = node("table", "memories");
      const head = node("tr");
      for (const h of ["Memory", "Kind", "Strength", "First", "Last"]) head.appendChild(node("th", "", h));
      table.appendChild(head);
      for (const m of entries) {
        const tr = node("tr");
        const tag = cell("Memory", m.tag);
        tag.classList.add("tag");
        tr.appendChild(tag);
        tr.appendChild(cell("Kind", m.category));
        const td = cell("Strength");
        const b = node("div", "bar small");
        const f = node("div", "fill");
        f.style.width = `${Math.round(100 * m.strength)}%`;
        b.appendChild(f);
        td.appendChild(b);
        tr.appendChild(td);
        tr.appendChild(cell("First", day(m.created)));
        tr.appendChild(cell("Last", day(m.last_reinforced)));
        table.appendChild(tr);
      }
      section.appendChild(table);
      parts.push(section);
    }
    box.replaceChildren(...parts);
    show("memories-empty", parts.length === 0);
  }

  async function askForget(what) {
    const path = what.kind === "child" ? "/api/forget-child" : "/api/forget-everything";
    const r = await api(path, { step: "request", child: what.child });
    if (!r.ok) { text("memories-message", r.data.message || r.data.error || "refused"); return; }
    pendingForget = what;
    text("confirm-question", r.data.message ||
      (what.kind === "child" ? `Forget everything Buddy remembers about ${what.child}?`
                             : "Forget everything Buddy remembers?"));
    // What forgetting keeps: the safety alerts, which hold the child's own words. The
    // parent may clear those too (issue 30).
    const kept = lastAlerts.filter((a) => a.distress);
    const quoted = kept.filter((a) => a.words).slice(0, 3).map((a) => `\u201c${a.words}\u201d`);
    const keepsWords = quoted.length ? `, with your child's own words: ${quoted.join(", ")}` : "";
    text("confirm-keeps", kept.length === 0 ? "" :
      `This keeps the ${kept.length === 1 ? "safety alert" : `${kept.length} safety alerts`}` +
      ` (what your child said that made Buddy ask for a grown-up${keepsWords}).`);
    text("confirm-clear-label", `Clear the safety alert${kept.length === 1 ? "" : "s"} too` +
      (quoted.length ? `, and with ${kept.length === 1 ? "it" : "them"} your child's words` : ""));
    $("confirm-clear-alerts").checked = false;
    show("confirm-alerts", what.kind === "everything" && kept.length > 0);
    show("confirm", true);
  }

  async function answerForget(confirm) {
    const what = pendingForget;
    pendingForget = null;
    show("confirm", false);
    if (!what) return;
    const path = what.kind === "child" ? "/api/forget-child" : "/api/forget-everything";
    const clearAlerts = confirm && what.kind === "everything" && $("confirm-clear-alerts").checked;
    const upTo = Math.max(0, ...lastAlerts.filter((a) => a.distress).map((a) => a.time));
    const r = await api(path, { step: confirm ? "confirm" : "cancel", child: what.child });
    let said = r.data.message || r.data.error || (r.ok ? "done" : "refused");
    if (r.ok && clearAlerts) {
      const c = await api("/api/alerts/clear", { up_to: upTo });
      said += ` ${c.data.message || c.data.error || ""}`;
    }
    text("memories-message", said);
    loadMemories();
  }

  // -- the household (issue 30): the identity node checks and writes every change ------
  function age(birthdate) {
    if (!birthdate) return "";
    const b = new Date(`${birthdate}T00:00:00`), now = new Date();
    let years = now.getFullYear() - b.getFullYear();
    if (now.getMonth() < b.getMonth() ||
        (now.getMonth() === b.getMonth() && now.getDate() < b.getDate())) years -= 1;
    return `${years} years old`;
  }

  function renderHousehold(children) {
    const items = children.map((c) => {
      const li = node("li", "child");
      li.dataset.child = c.user_id;
      li.appendChild(node("span", "child-name", c.name));
      const about = [age(c.birthdate) || "birthdate not given"];
      if (c.addressing) about.push(`Buddy calls them ${c.addressing}`);
      li.appendChild(node("span", "child-about", about.join(" \u00b7 ")));
      const edit = node("button", "link", "Edit");
      edit.addEventListener("click", () => startEdit(c));
      const remove = node("button", "link", "Remove…");
      remove.addEventListener("click", () => askRemove(c));
      const actions = node("span", "child-actions");
      actions.appendChild(edit);
      actions.appendChild(remove);
      li.appendChild(actions);
      return li;
    });
    $("household").replaceChildren(...items);
    show("household-empty", items.length === 0);
  }

  function startEdit(c) {
    editing = c;
    text("child-form-title", `Change ${c.name}`);
    text("child-save", "Save");
    $("child-name").value = c.name;
    $("child-birthdate").value = c.birthdate || "";
    $("child-addressing").value = c.addressing || "";
    show("child-cancel", true);
  }

  function resetChildForm() {
    editing = null;
    text("child-form-title", "Add a child");
    text("child-save", "Add");
    for (const id of ["child-name", "child-birthdate", "child-addressing"]) $(id).value = "";
    show("child-cancel", false);
  }

  function askRemove(c) {
    removing = c;
    text("remove-question", `Remove ${c.name} from the household? Buddy forgets everything ` +
      `it remembers about ${c.name}. This cannot be undone.`);
    show("remove-confirm", true);
  }

  async function answerRemove(yes) {
    const c = removing;
    removing = null;
    show("remove-confirm", false);
    if (!c || !yes) return;
    const r = await api("/api/household", { action: "remove", child: c.user_id });
    text("household-message", r.data.message || r.data.error || "");
    loadMemories();
  }

  $("child-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = {
      action: editing ? "edit" : "add", child: editing ? editing.user_id : "",
      name: $("child-name").value.trim(), birthdate: $("child-birthdate").value,
      addressing: $("child-addressing").value.trim(),
    };
    const r = await api("/api/household", body);
    text("household-message", r.data.message || r.data.error || "");
    if (r.ok) resetChildForm();
  });
  $("child-cancel").addEventListener("click", resetChildForm);
  $("remove-yes").addEventListener("click", () => answerRemove(true));
  $("remove-no").addEventListener("click", () => answerRemove(false));

  $("login-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    // cleared as it is sent, not when the answer comes: a PIN typed meanwhile is kept
    const pin = $("pin").value;
    $("pin").value = "";
    const r = await api("/api/login", { pin });
    if (r.ok) { text("login-message", ""); start(); return; }
    let msg = r.data.error || "Wrong PIN.";
    if (r.data.retry_after_s > 0) msg += ` Try again in ${Math.ceil(r.data.retry_after_s)} s.`;
    text("login-message", msg);
  });
  $("logout").addEventListener("click", async () => { await api("/api/logout", {}); start(); });
  $("forget-all").addEventListener("click", () => askForget({ kind: "everything" }));
  $("confirm-yes").addEventListener("click", () => answerForget(true));
  $("confirm-no").addEventListener("click", () => answerForget(false));
  $("limits-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const daily = $("limit-daily").value, session = $("limit-session").value;
    const r = await api("/api/limits", {
      daily_limit_min: daily ? Number(daily) : null,
      session_limit_min: session ? Number(session) : null,
    });
    text("limits-message", r.data.message || r.data.error || "");
  });
  setInterval(() => { if (!$("panels").hidden) loadMemories(); }, 30000);
  start();
})();
