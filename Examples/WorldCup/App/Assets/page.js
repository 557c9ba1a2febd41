// The page: renders the table, follows the server's feed over a WebSocket, and sends clicks and
// new teams back. Names only ever reach the DOM through textContent.
"use strict";

(function () {
  const tableElement = document.getElementById("table");
  const indexElement = document.getElementById("index");
  const statusElement = document.getElementById("status");
  const messageElement = document.getElementById("message");
  const form = document.getElementById("add-team");
  const zonesList = document.getElementById("zones");

  // What the tests read: the last batch applied, and how the feed went.
  const state = { seq: null, snapshots: 0, batches: 0, resyncs: 0, errors: [], awaitingSnapshot: false };
  window.worldCup = state;

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function teamElement(team) {
    const item = element("li", "team");
    item.dataset.id = team.id;
    const button = element("button");
    button.type = "button";
    button.append(element("span", "rank"), element("span", "name", team.name), element("span", "wins"));
    item.append(button);
    fillTeam(item, team);
    return item;
  }

  function fillTeam(item, team) {
    item.querySelector(".name").textContent = team.name;
    item.querySelector(".wins").textContent = team.wins === 1 ? "1 win" : team.wins + " wins";
    item.querySelector("button").title = "Give " + team.name + " a win";
  }

  function sectionElement(section) {
    const node = element("section", "zone");
    node.dataset.title = section.title || "";
    node.append(element("h2", null, section.name), element("ol", "teams"));
    return node;
  }

  function flash(node, className) {
    node.classList.remove("flash", "enter");
    void node.offsetWidth; // restart the animation if it is running
    node.classList.add(className);
  }

  // The DOM as the list table.js applies batches to.
  const domList = {
    sections() { return tableElement.querySelectorAll(":scope > section.zone"); },
    rows(s) { return this.sections()[s].querySelectorAll(":scope > ol > li.team"); },
    sectionCount() { return this.sections().length; },
    rowCount(s) { return this.rows(s).length; },
    rowId(s, r) { return this.rows(s)[r].dataset.id; },
    deleteRow(s, r) { this.rows(s)[r].remove(); },
    deleteSection(s) { this.sections()[s].remove(); },
    insertSection(s, section) {
      const node = sectionElement(section);
      tableElement.insertBefore(node, this.sections()[s] || null);
      flash(node, "enter");
    },
    insertRow(s, r, team, moved) {
      const list = this.sections()[s].querySelector("ol");
      const node = teamElement(team);
      list.insertBefore(node, list.children[r] || null);
      flash(node, moved ? "flash" : "enter");
    },
    updateRow(s, r, team) {
      const node = this.rows(s)[r];
      fillTeam(node, team);
      flash(node, "flash");
    },
    setIndexTitles(titles) { renderIndex(titles); },
  };

  function renderIndex(titles) {
    indexElement.replaceChildren(...titles.map((title) => {
      const link = element("button", null, title);
      link.type = "button";
      link.addEventListener("click", () => {
        const target = tableElement.querySelector("section.zone[data-title=\"" + CSS.escape(title) + "\"]");
        if (target) target.scrollIntoView({ behavior: "smooth", block: "start" });
      });
      return link;
    }));
  }

  function renderZones() {
    zonesList.replaceChildren(...[...tableElement.querySelectorAll("section.zone > h2")].map((h2) => {
      const option = element("option");
      option.value = h2.textContent;
      return option;
    }));
  }

  function render(table) {
    tableElement.replaceChildren(...table.sections.map((section) => {
      const node = sectionElement(section);
      node.querySelector("ol").append(...section.teams.map(teamElement));
      return node;
    }));
    renderIndex(table.indexTitles);
    renderZones();
  }

  // Rows slide from where they were to where they are (moved rows were replaced, so they are
  // matched by team ID).
  function positions() {
    const tops = new Map();
    for (const row of tableElement.querySelectorAll("li.team")) tops.set(row.dataset.id, row.getBoundingClientRect().top);
    return tops;
  }

  function slide(before) {
    for (const row of tableElement.querySelectorAll("li.team")) {
      const old = before.get(row.dataset.id);
      const delta = old === undefined ? 0 : old - row.getBoundingClientRect().top;
      if (Math.abs(delta) < 1) continue;
      row.style.transition = "none";
      row.style.transform = "translateY(" + delta + "px)";
      void row.offsetWidth;
      row.style.transition = "";
      row.style.transform = "";
    }
  }

  let socket = null;

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  function resync(reason) {
    state.resyncs += 1;
    state.awaitingSnapshot = true;
    if (reason) state.errors.push(reason);
    send({ type: "snapshot" });
  }

  function receive(message) {
    switch (message.type) {
      case "snapshot":
        // A snapshot of the table already shown changes nothing; one after a gap replaces it.
        if (state.awaitingSnapshot || message.seq !== state.seq) render(message.table);
        state.seq = message.seq;
        state.awaitingSnapshot = false;
        state.snapshots += 1;
        break;
      case "batch":
        if (state.seq === null || state.awaitingSnapshot || message.seq <= state.seq) return;
        if (message.seq !== state.seq + 1) {
          resync();
          return;
        }
        try {
          const before = positions();
          WorldCupTable.applyBatch(domList, message.batch);
          slide(before);
          renderZones();
          state.seq = message.seq;
          state.batches += 1;
        } catch (error) {
          resync(String(error));
          return;
        }
        break;
      case "ack":
        if (message.request === "add") {
          form.reset();
          showMessage("Added " + message.team.name + ".", false);
        }
        return;
      case "error":
        showMessage(message.reason, true);
        return;
    }
    document.body.dataset.seq = String(state.seq);
  }

  function showMessage(text, isError) {
    messageElement.textContent = text;
    messageElement.classList.toggle("error", isError);
  }

  function setStatus(text, live) {
    statusElement.textContent = text;
    statusElement.classList.toggle("live", live);
  }

  let retryDelay = 500;
  function connect() {
    const protocol = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(protocol + location.host + "/live");
    socket.addEventListener("open", () => {
      retryDelay = 500;
      setStatus("live", true);
    });
    socket.addEventListener("message", (event) => {
      try {
        receive(JSON.parse(event.data));
      } catch (error) {
        state.errors.push(String(error));
      }
    });
    socket.addEventListener("close", () => {
      setStatus("reconnecting…", false);
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 8000);
    });
  }

  // Without a socket, the same requests go over HTTP; their batches arrive once it is back.
  async function post(path, body) {
    const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const reply = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error((reply.error && reply.error.message) || response.statusText);
    return reply.team;
  }

  tableElement.addEventListener("click", (event) => {
    const row = event.target.closest("li.team");
    if (!row) return;
    const id = row.dataset.id;
    if (!send({ type: "win", team: id })) {
      post("/api/teams/" + encodeURIComponent(id) + "/win", {}).catch((error) => showMessage(error.message, true));
    }
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const message = { type: "add", name: form.elements.name.value, zone: form.elements.zone.value };
    if (!send(message)) {
      post("/api/teams", { name: message.name, zone: message.zone })
        .then((team) => { form.reset(); showMessage("Added " + team.name + ".", false); })
        .catch((error) => showMessage(error.message, true));
    }
  });

  // The tests hand the page messages the server would not send: a gap, a batch that does not fit.
  state.receive = receive;

  const initial = JSON.parse(document.getElementById("initial-snapshot").textContent);
  receive(initial);
  connect();
})();
