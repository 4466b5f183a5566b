// The teacher's dashboard: live station cards (Server-Sent Events), the rotation's
// buttons, the plan editor, the class list and the reports. Plain JavaScript, no build
// step, nothing from the internet.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

let latest = null; // the newest state from the console
let planFilled = false;
let reportsAsked = 0; // the newest request for the reports (an older answer is dropped)
const deadlines = new Map(); // device -> [performance seconds when time is up, running]

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function showAlert(message, where = "#alert") {
  const box = $(where);
  box.textContent = message || "";
  box.hidden = !message;
}

function count(n, noun) { // "1 game", "2 games"
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function and(items) { // "A", "A and B", "A, B and C"
  return items.length === 1 ? items[0] : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

async function api(path, body, { raw = false } = {}) {
  const init = { credentials: "same-origin", headers: { Accept: "application/json" } }; // never the refused-download page
  if (body !== undefined) {
    init.method = "POST";
    if (body instanceof FormData) init.body = body;
    else {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new Error("The console cannot be reached: check the network.");
  }
  if (response.status === 401) {
    window.location.assign("/login");
    throw new Error("Please log in again.");
  }
  const data = raw && response.ok ? response : await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((data && data.error) || `The console said ${response.status}.`);
  return data;
}

// -- tabs -------------------------------------------------------------------------------

function showTab() {
  const name = (location.hash || "#stations").slice(1);
  const part = $(`[data-part="${name}"]`) ? name : "stations";
  for (const section of $$("[data-part]")) section.hidden = section.dataset.part !== part;
  for (const link of $$("nav a[data-tab]")) {
    if (link.dataset.tab === part) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (part === "roster") loadRoster();
  if (part === "reports") loadReports();
  if (part === "plan") fillPlan();
}

// -- stations ---------------------------------------------------------------------------

function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds - 1e-9));
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

function clockTime(epoch) {
  return new Date(epoch * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function cardState(card) {
  const st = card.status;
  if (!card.online) return ["offline", card.last_seen ? `Offline · last seen ${clockTime(card.last_seen)}` : "Offline"];
  // In a station that runs but not there yet (its plan on the way): never "Free play" alone
  // under that station's name.
  if (card.waiting && runningMoment(card)) return ["waiting", `${st && st.game ? "Free play: n" : "N"}ot at its station yet`];
  if (card.waiting) return st && st.game ? ["free", "Free play"] : ["waiting", "Waiting"];
  if (st.paused) return ["paused", "Paused"];
  const m = runningMoment(card);
  if (m && !m.group && st.phase !== "transition") return ["resting", "Resting"]; // no group this round
  return {
    play: ["playing", "Playing"],
    warning: ["warning", "Last minutes"],
    transition: ["transition", "Changing stations"],
    done: ["done", "Finished"],
  }[st.phase] || ["waiting", "Waiting"];
}

// The moment of the clock a card's device runs, or none (no plan, no station, ended).
function runningMoment(card) {
  const m = latest && latest.plan && card.station !== null ? latest.moments[card.station] : null;
  return m && m.phase !== "done" ? m : null;
}

function stationButtons(card) {
  const box = el("div", { class: "actions", role: "group", "aria-label": `${card.title || card.device} controls` });
  const m = runningMoment(card);
  const paused = card.online ? card.status && card.status.paused : m && m.paused; // as its clock
  const name = card.title || card.device;
  const add = (act, label, cls) =>
    box.append(el("button", {
      type: "button", class: cls, "data-act": act, "data-station": card.station,
      "aria-label": `${label} ${name}`, text: label,
    }));
  if (m) { // else nothing to pause, extend or skip: no clock buttons
    if (paused) add("resume", "Resume");
    else add("pause", "Pause");
    add("extend", "+1 min");
    add("skip", "Skip", "warn");
    add("end", "End", "warn");
  }
  if (card.dismiss) { // offline and in no station: the teacher may put it out of sight
    box.append(el("button", { type: "button", class: "quiet", "data-keys": card.dismiss,
      "aria-label": `Dismiss ${name}`, text: "Dismiss", onclick: () => dismiss([card.dismiss]) }));
  }
  return box;
}

function renderCard(card) {
  const st = card.status;
  // Its station's clock ended: the device plays free play, under no station's name; offline,
  // it plays nothing the teacher can see: its card keeps the station's name, says it ended.
  const ended = card.station !== null && !runningMoment(card);
  if (ended) card = { ...card, title: card.online ? null : card.title, waiting: true };
  const [kind, label] = ended && card.online ? ["free", "Free play"] : cardState(card);
  // Offline, its station's time is the console's: the plan's clock, which a device only
  // shows, runs on without it. Online, a status says the time left when it was sent: a
  // clock that counts has gone on since.
  const m = card.online ? null : runningMoment(card);
  const clock = m || (!card.waiting && st);
  const counting = clock && !clock.paused && ["play", "warning", "transition"].includes(clock.phase);
  const left = clock ? clock.left - (counting && !m ? card.age || 0 : 0) : 0;
  const node = el("article", { class: `card ${kind}`, id: `card-${card.device}`, "data-device": card.device, "aria-label": card.title || card.device });
  const heading = ended ? "Free play" : card.station !== null ? `Station ${card.station + 1}` : "Not in the plan";
  node.append(el("h3", { text: card.title || heading }));
  node.append(el("span", { class: "device", text: card.device }));
  node.append(el("span", { class: "state", text: label }));
  if (ended && !card.online) node.append(el("div", { class: "group", text: "Station ended" }));
  if (clock) {
    const next = clock.phase === "transition" ? "Next: " : ""; // the group arriving
    node.append(...groupLines(clock.group, runningMoment(card), next));
    node.append(el("div", { class: "left", "aria-label": "time left", text: mmss(left) }));
  }
  // Offline, what only the device's last status says is from then: it may have played on.
  const then = card.online ? "" : " when last seen";
  if (st && card.game_title) { // in free play too
    node.append(el("div", { class: "game", text: card.online ? card.game_title : `Last seen playing ${card.game_title}` }));
  }
  if (st && st.standings && st.standings.length) {
    const list = el("ol", { class: "standings", "aria-label": `standings${then}` });
    // Seats come in seat order, each with its place: listed by place, numbered with it.
    const byPlace = st.standings.slice().sort((a, b) => a.place - b.place);
    for (const s of byPlace) list.append(el("li", { value: s.place, text: `${s.name}: ${s.score}` }));
    node.append(list);
  }
  const meta = [];
  if (st) meta.push(`${st.outbox ? `${count(st.outbox, "result")} to send` : "All results sent"}${then}`);
  if (card.online && !ended && latest && latest.plan && card.station !== null && !card.follows) meta.push("updating…");
  if (meta.length) node.append(el("div", { class: "meta", text: meta.join(" · ") }));
  node.append(stationButtons(card));
  deadlines.set(card.device, [performance.now() / 1000 + left, counting]);
  return node;
}

// A station in the plan with no device: where its group belongs, and what to do.
function renderNoDevice(m, index) {
  const node = el("article", { class: "card nodevice", id: `no-device-${index}`, "data-device": `#${index}`, "aria-label": m.title });
  node.append(el("h3", { text: m.title }));
  node.append(el("span", { class: "state", text: "No device: choose one in Plan" }));
  node.append(...groupLines(m.group, m));
  node.append(el("div", { class: "actions" }));
  return node;
}

// The group at a station; with none in its running moment ``m`` it rests: said so, with
// the group the plan sends there after (none: its rotations are over).
function groupLines(group, m, prefix = "") {
  if (group || !m) return [el("div", { class: "group", text: group ? `${prefix}Group ${group}` : "No group" })];
  return [el("div", { class: "group", text: `Resting ${m.phase === "transition" ? "next" : "this"} round` }),
    m.next && el("div", { class: "next", text: `Group ${m.next} comes next` })].filter(Boolean);
}

// A card drawn again in place, its buttons kept while they read the same: a press that
// spans a new status (finger down, the card drawn again, finger up) still clicks.
function redraw(node, fresh) {
  if (!node) return fresh;
  const kept = $(".actions", node);
  const actions = $(".actions", fresh);
  for (const child of [...node.children]) if (child !== kept) child.remove();
  kept.before(...[...fresh.children].filter((child) => child !== actions));
  if (!kept.isEqualNode(actions)) kept.replaceWith(actions);
  node.className = fresh.className;
  node.setAttribute("aria-label", fresh.getAttribute("aria-label"));
  return node;
}

function renderStations(state) {
  const cards = $("#cards");
  const focused = document.activeElement && document.activeElement.closest(".card")
    ? [document.activeElement.closest(".card").dataset.device, document.activeElement.dataset.act] : null;
  const drawn = new Map($$(".card", cards).map((node) => [node.dataset.device, node]));
  const shown = state.stations.filter((card) => !card.dismissed)
    .map((card) => [card.station === null ? 99 : card.station, card.device, renderCard(card)]);
  const placed = new Set(Object.values(state.plan ? state.plan.stations : {}));
  state.moments.forEach((m, i) => {
    if (!placed.has(i) && m.phase !== "done") shown.push([i, `#${i}`, renderNoDevice(m, i)]);
  });
  shown.sort((a, b) => a[0] - b[0]); // stable: devices in the order the console gave
  const nodes = shown.map(([, key, fresh]) => redraw(drawn.get(key), fresh));
  if (nodes.length !== cards.children.length || nodes.some((node, i) => cards.children[i] !== node)) {
    cards.replaceChildren(...nodes);
  }
  $("#no-stations").hidden = state.stations.length > 0;
  if (focused) {
    const again = $(`#card-${CSS.escape(focused[0])} button[data-act="${focused[1]}"]`)
      || $(`#card-${CSS.escape(focused[0])} button`);
    if (again) again.focus();
  }
  const plan = state.plan;
  let line = "No rotation is running.";
  if (plan && state.moments.length) {
    const m = state.moments.find((c) => c.phase !== "done") || state.moments[0]; // one still running
    const count = plan.plan.rotations || plan.plan.stations.length;
    const words = { play: "playing", warning: "last minutes", transition: "changing stations", done: "finished" }[m.phase];
    const paused = state.moments.filter((c) => c.paused).length;
    const some = paused === state.moments.length ? " (paused)" : ` (${paused} of ${state.moments.length} stations paused)`;
    line = m.phase === "done" ? "The rotation is finished." : `Rotation ${m.rotation + 1} of ${count}: ${words}${paused ? some : ""}.`;
  }
  $("#rotation").textContent = line;
  const over = !plan || state.moments.every((m) => m.phase === "done");
  for (const b of $$(".bar button[data-act]")) b.disabled = over;
  // Results refused, results not stored yet, a class list the stations cannot take: each
  // out of sight once the teacher has seen it, until it happens again.
  const problems = state.problems || [];
  $("#problems").replaceChildren(...problems.map((p) => el("li", {}, el("span", { text: p.sentence }),
    el("button", { type: "button", class: "quiet", "aria-label": `Dismiss: ${p.sentence}`, text: "Dismiss",
      onclick: () => dismiss(p.keys) }))));
  $("#problems").hidden = problems.length === 0;
  const link = $("#link");
  link.textContent = !state.connected ? "The broker is not reachable"
    : problems.length ? "Live, with problems (see Stations)" : "Live";
  link.classList.toggle("down", !state.connected || problems.length > 0);
}

function tick() {
  const now = performance.now() / 1000;
  for (const [device, [deadline, running]] of deadlines) {
    if (!running) continue;
    const left = $(`#card-${CSS.escape(device)} .left`);
    if (left) left.textContent = mmss(deadline - now);
  }
}

async function dismiss(keys) {
  try {
    await api("/api/dismiss", { keys });
    showAlert("");
  } catch (err) {
    showAlert(err.message);
  }
}

async function clockAction(act, station) {
  const where = station === null ? "every station" : `station ${station + 1}`;
  if ((act === "skip" || act === "end") &&
      !window.confirm(act === "skip" ? `Skip to the next part for ${where}?` : `End the rotation for ${where}?`)) return;
  try {
    await api("/api/clock", { action: act, station, minutes: 1 });
    showAlert("");
  } catch (err) {
    showAlert(err.message);
  }
}

function render(state) {
  // A game stored since: the reports, if open, say so at once.
  const stored = latest && state.results !== latest.results;
  latest = state;
  if (stored && !$("#reports").hidden) loadReports();
  showAlert(state.saving, "#saving"); // the console's journal cannot be written
  renderStations(state);
  refreshDevices();
  const groups = $("#group-list");
  groups.replaceChildren(...state.groups.map((g) => el("option", { value: g })));
}

function listen() {
  const source = new EventSource("/api/events");
  source.addEventListener("state", (event) => render(JSON.parse(event.data)));
  source.addEventListener("logout", () => window.location.assign("/login"));
  source.onerror = () => {
    $("#link").textContent = "Reconnecting…";
    $("#link").classList.add("down");
    api("/api/state").catch(() => {}); // a lapsed session goes back to the login page
  };
}

// -- the plan ---------------------------------------------------------------------------

function stationRow(index, station) {
  const catalogue = latest ? latest.catalogue : [];
  const game = el("select", { "aria-label": `Station ${index + 1} game`, class: "game" });
  for (const g of catalogue) game.append(el("option", { value: g.id, text: g.title }));
  const mode = el("select", { "aria-label": `Station ${index + 1} mode`, class: "mode" });
  // The game's modes, and its options (a deck, an edition, the bots' level): each preset,
  // or left to the group.
  const options = el("span", { class: "options" });
  const fillGame = (chosen = {}) => {
    const entry = catalogue.find((g) => g.id === game.value) || { modes: [], options: [] };
    mode.replaceChildren(...entry.modes.map(([id, name]) => el("option", { value: id, text: name })));
    options.replaceChildren(...entry.options.map(([key, label, values]) => {
      const select = el("select", { class: "option", "data-key": key, "aria-label": `Station ${index + 1} ${label}` },
        el("option", { value: "", text: "the group chooses" }),
        ...values.map(([id, text]) => el("option", { value: id, text })));
      select.value = chosen[key] || "";
      return el("label", {}, label, select);
    }));
  };
  if (station) game.value = station.game;
  fillGame(station ? station.options || {} : {});
  if (station && station.mode) mode.value = station.mode;
  game.addEventListener("change", () => fillGame());
  // The name the children see ("this is Station 2 — Quiet corner"); empty: the game's.
  const name = el("input", { type: "text", class: "name", maxlength: "30", placeholder: "the game's name",
    "aria-label": `Station ${index + 1} name` });
  const titled = station && catalogue.find((g) => g.id === station.game);
  if (station && (!titled || station.name !== titled.title)) name.value = station.name;
  const device = el("select", { "aria-label": `Station ${index + 1} device`, class: "device" });
  const remove = el("button", { type: "button", class: "quiet", text: "Remove", "aria-label": `Remove station ${index + 1}` });
  const row = el("div", { class: "station-row", "data-index": index },
    el("span", { class: "num", text: `Station ${index + 1}` }),
    el("label", {}, "Game", game), el("label", {}, "Mode", mode), options, el("label", {}, "Name", name),
    el("label", {}, "Device", device), remove);
  remove.addEventListener("click", () => { row.remove(); renumber(); });
  return row;
}

function renumber() {
  $$("#plan-stations .station-row").forEach((row, i) => {
    row.dataset.index = i;
    $(".num", row).textContent = `Station ${i + 1}`;
  });
  refreshDevices();
}

function refreshDevices() {
  if (!latest) return;
  const devices = latest.stations.slice().sort((a, b) => (b.online - a.online) || a.device.localeCompare(b.device));
  const names = devices.map((d) => [d.device, `${d.device}${d.online ? "" : " (offline)"}`]);
  const list = names.map(([, text]) => text).join("\n");
  $$("#plan-stations .station-row").forEach((row, i) => {
    const select = $("select.device", row);
    if (select.dataset.list === list) return; // made again only when the devices change
    select.dataset.list = list;
    const chosen = select.value || select.dataset.want || "";
    select.replaceChildren(el("option", { value: "", text: "(no device)" }),
      ...names.map(([value, text]) => el("option", { value, text })));
    select.value = chosen;
    if (!select.value) select.dataset.want = chosen;
  });
}

function fillPlan() {
  if (planFilled || !latest) return;
  planFilled = true;
  const plan = latest.plan;
  const rows = $("#plan-stations");
  rows.replaceChildren();
  // No plan yet: a station for each device that is on (three when none is).
  const online = latest.stations.filter((d) => d.online).length;
  const stations = plan ? plan.plan.stations : Array(Math.min(8, online || 3)).fill(null);
  stations.forEach((s, i) => rows.append(stationRow(i, s)));
  if (plan) {
    const p = plan.plan;
    $("#plan-groups").value = p.groups.join("\n");
    $("#plan-minutes").value = p.minutes;
    $("#plan-transition").value = p.transition;
    $("#plan-warning").value = p.warning;
    $("#plan-rotations").value = p.rotations || "";
    $("#plan-session").value = plan.session; // started again, its games stay in the lesson
    for (const [device, index] of Object.entries(plan.stations)) {
      const select = $(`#plan-stations .station-row[data-index="${index}"] select.device`);
      if (select) select.dataset.want = device;
    }
  } else if (latest.groups.length) {
    $("#plan-groups").value = latest.groups.join("\n");
  }
  refreshDevices();
  giveFreeDevices($$("#plan-stations select.device"));
}

// Online devices that no station has yet go, in order, to those of `selects` without one.
function giveFreeDevices(selects) {
  if (!latest) return;
  const taken = new Set($$("#plan-stations select.device").map((s) => s.value).filter(Boolean));
  const free = latest.stations.filter((d) => d.online && !taken.has(d.device)).map((d) => d.device);
  for (const s of selects) if (!s.value && free.length) s.value = free.shift();
}

function number(id) {
  const text = $(id).value.trim();
  return text === "" ? null : Number(text);
}

// The running rotation with only its devices changed (a broken one replaced): what moves,
// as "Station 2 to station-4"; none when anything else changed too (a new rotation).
function movedStations(plan, stations, session) {
  const running = latest.plan;
  const title = (game) => (latest.catalogue.find((g) => g.id === game) || {}).title;
  const same = (p) => JSON.stringify([p.groups, p.minutes, p.transition, p.warning, p.rotations || null,
    p.stations.map((s) => [s.game, s.mode, s.name || title(s.game), Object.entries(s.options).sort()])]);
  if (session !== running.session || same(plan) !== same(running.plan)) return [];
  const deviceOf = (map, i) => Object.keys(map).find((device) => map[device] === i);
  return plan.stations.flatMap((_, i) => deviceOf(stations, i) === deviceOf(running.stations, i) ? []
    : [`Station ${i + 1} to ${deviceOf(stations, i) || "no device"}`]);
}

async function startPlan(event) {
  event.preventDefault();
  const rows = $$("#plan-stations .station-row");
  const chosen = rows.map((row) => $("select.device", row).value);
  const twice = chosen.find((device, i) => device && chosen.indexOf(device) !== i);
  if (twice) {
    const where = chosen.flatMap((device, i) => (device === twice ? [`Station ${i + 1}`] : []));
    showAlert(`${twice} is chosen for ${and(where)}: a device can be one station only.`, "#plan-error");
    return;
  }
  const stations = Object.fromEntries(chosen.flatMap((device, i) => (device ? [[device, i]] : [])));
  const plan = {
    stations: rows.map((row) => ({
      game: $("select.game", row).value, mode: $("select.mode", row).value, name: $("input.name", row).value.trim(),
      options: Object.fromEntries($$("select.option", row).filter((o) => o.value).map((o) => [o.dataset.key, o.value])),
    })),
    groups: $("#plan-groups").value.split(/[\n,]/).map((g) => g.trim()).filter(Boolean),
    minutes: number("#plan-minutes"),
    transition: number("#plan-transition"),
    warning: number("#plan-warning"),
    rotations: number("#plan-rotations"),
  };
  const session = $("#plan-session").value.trim();
  try { // the console's own checks first: no question about devices for a plan it refuses
    await api("/api/plan", { plan, stations, session, check: true });
  } catch (err) {
    showAlert(err.message, "#plan-error");
    return;
  }
  const bare = chosen.flatMap((device, i) => (device ? [] : [`Station ${i + 1}`]));
  if (bare.length) { // no table shows these stations' groups the game and the time
    const one = bare.length === 1;
    const names = `${and(bare)} ${one ? "has" : "have"}`;
    if (!window.confirm(`${names} no device: no table there will show ${one ? "its" : "their"} groups their game and their time. Start anyway?`)) {
      showAlert(`${names} no device: choose one for ${one ? "it" : "each"}, or remove ${one ? "it" : "them"}.`, "#plan-error");
      return;
    }
  }
  const running = latest && latest.plan && latest.moments.some((m) => m.phase !== "done");
  const moved = running ? movedStations(plan, stations, session) : [];
  const asked = !running ? true : moved.length
    ? window.confirm(`Move ${and(moved)}? ${moved.length === 1 ? "Its group carries" : "Their groups carry"} on there, and every station's clock goes on.`)
    : window.confirm("A rotation is running: start this plan in its place? Every station starts again from rotation 1.");
  if (!asked) {
    showAlert("Nothing changed: the rotation goes on.", "#plan-error");
    return;
  }
  try {
    await api("/api/plan", { plan, stations, session, swap: moved.length > 0 });
    showAlert("", "#plan-error");
    location.hash = "#stations";
  } catch (err) {
    showAlert(err.message, "#plan-error");
  }
}

// -- the class list ---------------------------------------------------------------------

async function loadRoster() {
  try {
    const data = await api("/api/roster");
    const rows = data.students.map((s) => {
      const name = el("input", { type: "text", value: s.name, "aria-label": `Name of ${s.id}`, maxlength: 40 });
      const group = el("input", { type: "text", value: s.group, "aria-label": `Group of ${s.id}`, list: "group-list", maxlength: 30 });
      const save = el("button", { type: "button", text: "Save", "aria-label": `Save ${s.id}` });
      const remove = el("button", { type: "button", class: "warn", text: "Remove", "aria-label": `Remove ${s.id}` });
      save.addEventListener("click", async () => {
        try {
          if (name.value.trim() !== s.name) await api("/api/roster", { op: "rename", id: s.id, name: name.value });
          if (group.value.trim() !== s.group) await api("/api/roster", { op: "group", id: s.id, group: group.value });
          done(`${s.id} saved.`);
        } catch (err) { refused(err.message); }
        loadRoster();
      });
      remove.addEventListener("click", async () => {
        if (!window.confirm(`Remove ${s.name} from the class list? Their past games stay.`)) return;
        try { await api("/api/roster", { op: "remove", id: s.id }); done(`${s.name} removed.`); }
        catch (err) { refused(err.message); }
        loadRoster();
      });
      return el("tr", { "data-id": s.id }, el("td", { "data-label": "Id", text: s.id }),
        el("td", { "data-label": "Name" }, name), el("td", { "data-label": "Group" }, group),
        el("td", { class: "acts" }, save, " ", remove));
    });
    // What the teacher typed and has not saved stays when the list is drawn again.
    const unsaved = new Map($$("#roster-rows input").filter((i) => i.value !== i.defaultValue)
      .map((i) => [i.getAttribute("aria-label"), i.value]));
    $("#roster-rows").replaceChildren(...rows);
    for (const node of $$("#badges-pdf, #roster label.paper")) node.hidden = rows.length === 0; // no badge to print
    for (const input of $$("#roster-rows input")) {
      if (unsaved.has(input.getAttribute("aria-label"))) input.value = unsaved.get(input.getAttribute("aria-label"));
    }
  } catch (err) {
    refused(err.message);
  }
}

function done(sentence) {
  showAlert("", "#roster-error");
  $("#roster-done").textContent = sentence;
}

function refused(sentence) { // in place of the last change's done line
  $("#roster-done").textContent = "";
  showAlert(sentence, "#roster-error");
}

async function addStudent(event) {
  event.preventDefault();
  try {
    const s = await api("/api/roster", { op: "add", name: $("#add-name").value, group: $("#add-group").value });
    $("#add-name").value = "";
    done(`${s.name} added as ${s.id}.`);
    $("#add-name").focus();
  } catch (err) { refused(err.message); }
  loadRoster();
}

async function importRoster(event) {
  event.preventDefault();
  const file = $("#import-file").files[0];
  if (!file) { refused("Choose a CSV file to import."); return; }
  const replace = $("#import-replace");
  const form = (...asks) => { // "replace", "preview": each "1"
    const data = new FormData();
    data.append("file", file);
    for (const ask of replace.checked ? ["replace", ...asks] : asks) data.append(ask, "1");
    return data;
  };
  try {
    if (replace.checked) { // asked first, as every change that removes students is
      const would = await api("/api/roster/import", form("preview"));
      if (would.removed && !window.confirm(`${count(would.removed, "student")} not in the file will be `
        + "removed (their games stay in the reports). Replace the whole list?")) {
        refused("Nothing changed: the class list is as it was.");
        return;
      }
    }
    const result = await api("/api/roster/import", form());
    replace.checked = false; // the next file adds and updates unless asked again
    done(`Imported: ${result.sentence}`);
  } catch (err) { refused(err.message); }
  loadRoster();
}

// -- reports ----------------------------------------------------------------------------

// The paper every PDF link asks for (A4 or Letter): chosen beside the links, kept for the
// next visit.
function paperLinks(chosen) {
  if (chosen) localStorage.setItem("paper", chosen);
  const paper = localStorage.getItem("paper") || "a4";
  for (const select of $$("select.paper")) select.value = paper;
  for (const link of $$("a[data-pdf]")) {
    const url = new URL(link.getAttribute("href"), location.href);
    url.searchParams.set("paper", paper);
    link.setAttribute("href", url.pathname + url.search);
  }
}

async function loadReports() {
  const asked = ++reportsAsked;
  try {
    const list = await api("/api/reports");
    if (asked !== reportsAsked) return;
    const open = new Set($$("#report-list > li").filter((li) => $(".report-games", li)?.children.length)
      .map((li) => li.dataset.session)); // their games are listed again
    const items = list.map((r) => {
      const q = `?session=${encodeURIComponent(r.session)}`;
      const games = el("ul", { class: "report-games" });
      const notes = [
        ...r.left_out.map((g) => el("li", { class: "alert" },
          el("span", { text: g.sentence }), hideButton(g.match, true))),
        ...r.hidden.map((g) => el("li", {},
          el("span", { text: g.sentence }), hideButton(g.match, false))),
      ];
      // Each game once: those named in the notes are not listed again under Games….
      const noted = new Set([...r.left_out, ...r.hidden].map((g) => g.match));
      if (open.has(r.session)) loadResults(r.session, games, noted);
      return el("li", { "data-session": r.session },
        el("span", { class: "title", text: r.title }),
        el("span", { text: `${count(r.games, "game")}, ${count(r.students, "student")}` }),
        el("a", { class: "button", href: `/report.csv${q}`, download: true, text: "CSV" }),
        el("a", { class: "button", href: `/report.pdf${q}`, "data-pdf": true, download: true, text: "PDF" }),
        el("button", { type: "button", text: "Games…", onclick: () => loadResults(r.session, games, noted) }),
        el("button", { type: "button", onclick: () => loadSkills(r.session, r.title), text: "Skills" }),
        el("a", { class: "button", href: `/skills.csv${q}`, download: true, text: "Skills CSV" }),
        el("ul", { class: "report-notes" }, ...notes),
        games);
    });
    // None with a child, though games came in: each had only bots (a simulated station's).
    const bots = latest ? latest.results : 0;
    const none = bots ? `No finished games with a child playing yet: the ${count(bots, "game")} that came in `
      + "since the console started had only bots at the table, and reports leave bots out." : "No finished games yet.";
    $("#report-list").replaceChildren(...(items.length ? items : [el("li", { text: none })]));
    paperLinks();
  } catch (err) {
    showAlert(err.message);
  }
}

// A session's games, each with a button to hide it from the reports (or show it again);
// those the notes name already (hidden, left out) are not listed again.
async function loadResults(session, into, noted) {
  try {
    const games = (await api(`/api/results?session=${encodeURIComponent(session)}`))
      .filter((g) => !noted.has(g.match));
    // A game only bots played counts in no report: said so, not left as a bare comma.
    const who = (g) => (g.players.length ? g.players.join(", ") : "bots only, in no report");
    into.replaceChildren(...(games.length ? games.map((g) => el("li", {},
      el("span", { text: `Game ${g.match}: ${g.title}${g.station ? ` (from ${g.station})` : ""}, ${who(g)}${g.hidden ? " (hidden)" : ""}` }),
      hideButton(g.match, !g.hidden))) : [el("li", { text: "No other games: each is named above." })]));
  } catch (err) {
    showAlert(err.message);
  }
}

// The skills view (issue 24): per student and skill, the level in words and colour, the
// most common mistake with the child's own example, the trend; then the class's dice.
async function loadSkills(session, title) {
  try {
    const data = await api(`/api/skills?session=${encodeURIComponent(session)}`);
    const titles = ["Student", "Group", "Skill", "Right", "Level", "Most common mistake", "Trend"];
    const head = el("thead", {}, el("tr", {}, ...titles.map((t) => el("th", { scope: "col", text: t }))));
    // Each cell says its column's title too: a phone shows that, not the headings.
    // A group's rows are its children's together: marked by where they come from (a
    // guest's row has no student id either).
    const rows = [...data.groups.map((r) => [r, true]), ...data.rows.map((r) => [r, false])]
      .map(([r, whole]) => el("tr", { class: whole ? "group" : null },
        ...[whole ? "Whole group" : r.shown, r.group, r.skill, `${r.right} of ${r.checked}`,
          el("span", { class: `level level-${r.level.replace(" ", "-")}`, text: r.level }),
          r.mistake ? sumsOnOneLine(r.said) : "no mistakes", r.trend,
        ].map((value, i) => el("td", { "data-label": titles[i], class: i === 5 ? "wide" : null }, value))));
    const counts = data.dice.counts.map((n, i) => `${i + 1}: ${n}`).join(" · ");
    $("#skills").replaceChildren(
      el("h3", { text: `Skills: ${title}` }),
      rows.length ? el("table", { class: "roster skills" }, head, el("tbody", {}, ...rows))
        : el("p", { text: "No answers checked in this session." }),
      el("h3", { text: "Are our dice fair?" }),
      el("p", { text: `Each face: ${counts}` }),
      el("p", { text: data.dice.sentence }));
    $("#skills").hidden = false;
    $("#skills").scrollIntoView({ block: "start" }); // drawn below every session
  } catch (err) {
    showAlert(err.message);
  }
}

// A sentence with each sum in it ("(17 ÷ 5 = 3 r 2)", "2 x 4") kept on one line.
function sumsOnOneLine(text) {
  const parts = text.split(/(\(?-?\d+(?: [-+x×÷=r] -?\d+)+\)?)/);
  return el("span", {}, ...parts.map((part, i) => (i % 2 ? el("span", { class: "math", text: part }) : part)));
}

// A download link's file fetched by the page and saved, not left to the browser, which
// drops a refused one without a word: the console's sentence is shown instead.
async function download(link) {
  try {
    const response = await api(link.getAttribute("href"), undefined, { raw: true });
    const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
    const url = URL.createObjectURL(await response.blob());
    el("a", { href: url, download: name ? name[1] : true }).click(); // in no page: not seen here
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    showAlert(""); // a refusal said before is past
  } catch (err) {
    showAlert(err.message);
    $("#alert").scrollIntoView({ block: "nearest" });
  }
}

function hideButton(match, hide) {
  return el("button", {
    type: "button",
    text: hide ? "Hide from reports" : "Show again",
    onclick: async () => {
      try {
        await api("/api/results/hide", { match, hidden: hide });
        loadReports();
      } catch (err) {
        showAlert(err.message);
      }
    },
  });
}

// -- start ------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[download]");
    if (link) { event.preventDefault(); download(link); return; }
    const button = event.target.closest("button[data-act]");
    if (!button) return;
    const station = button.dataset.station === undefined ? null : Number(button.dataset.station);
    clockAction(button.dataset.act, station);
  });
  $("#plan-form").addEventListener("submit", startPlan);
  $("#add-station").addEventListener("click", () => {
    const rows = $("#plan-stations");
    if (rows.children.length >= 8) { showAlert("At most 8 stations fit in a plan.", "#plan-error"); return; }
    const row = stationRow(rows.children.length, null);
    rows.append(row);
    refreshDevices();
    giveFreeDevices([$("select.device", row)]);
  });
  $("#groups-from-list").addEventListener("click", () => {
    if (latest && latest.groups.length) $("#plan-groups").value = latest.groups.join("\n");
    else showAlert("The class list has no groups yet.", "#plan-error");
  });
  $("#plan-clear").addEventListener("click", async () => {
    if (!window.confirm("Clear the plan? Every station stops its rotation.")) return;
    try { await api("/api/plan/clear", {}); planFilled = false; showAlert("", "#plan-error"); }
    catch (err) { showAlert(err.message, "#plan-error"); }
  });
  $("#roster-add").addEventListener("submit", addStudent);
  $("#roster-import").addEventListener("submit", importRoster);
  for (const select of $$("select.paper")) select.addEventListener("change", () => paperLinks(select.value));
  paperLinks();
  window.addEventListener("hashchange", showTab);
  api("/api/state").then((state) => { render(state); showTab(); }).catch((err) => showAlert(err.message));
  listen();
  setInterval(tick, 250);
});
