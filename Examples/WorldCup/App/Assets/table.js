// Applies the server's change batches to a sectioned list, in the order a table view applies
// `performBatchUpdates`: row deletions, then section deletions (old positions, last first, so the
// positions still to come stay valid), then section insertions, then row insertions (new
// positions, first first, so each lands where it says), then updates in place. A move is a
// deletion at its old position plus an insertion at its new one. No DOM here: the page passes a
// list of DOM sections, the tests a list of arrays.
"use strict";

(function (root) {
  function comparePositions(a, b) {
    return a.section - b.section || a.row - b.row;
  }

  function position(value, change, field) {
    if (!value || !Number.isInteger(value.section) || !Number.isInteger(value.row)) {
      throw new Error(change.change + " of " + change.id + " has no " + field + " position");
    }
    return value;
  }

  function expectRow(list, at, id, action) {
    if (at.section < 0 || at.section >= list.sectionCount() || at.row < 0 || at.row >= list.rowCount(at.section)) {
      throw new Error("cannot " + action + " row " + at.row + " of section " + at.section + ": there is no such row");
    }
    const found = list.rowId(at.section, at.row);
    if (found !== id) {
      throw new Error("cannot " + action + " " + id + " at [" + at.section + "," + at.row + "]: " + found + " is there");
    }
  }

  // Applies `batch` ({sections, rows, indexTitles}) to `list`, which has sectionCount(),
  // rowCount(s), rowId(s, r), deleteRow(s, r), deleteSection(s), insertSection(s, section),
  // insertRow(s, r, team, moved), updateRow(s, r, team) and setIndexTitles(titles). Throws when
  // the batch does not fit the list; the list may then be half changed, and needs a snapshot.
  function applyBatch(list, batch) {
    const deletedSections = [];
    const insertedSections = [];
    for (const change of batch.sections) {
      if (change.change === "delete") deletedSections.push(change);
      else if (change.change === "insert") insertedSections.push(change);
      else throw new Error("a section is inserted or deleted, not " + change.change);
    }
    const removals = [];
    const additions = [];
    const updates = [];
    for (const change of batch.rows) {
      const id = change.id;
      if (change.change !== "delete" && (!change.team || change.team.id !== id)) {
        throw new Error(change.change + " of " + id + " has no team");
      }
      switch (change.change) {
        case "insert":
          additions.push({ at: position(change.to, change, "new"), id, team: change.team, moved: false });
          break;
        case "delete":
          removals.push({ at: position(change.from, change, "old"), id });
          break;
        case "move":
          removals.push({ at: position(change.from, change, "old"), id });
          additions.push({ at: position(change.to, change, "new"), id, team: change.team, moved: true });
          break;
        case "update":
          updates.push({ at: change.to || position(change.from, change, "old"), id, team: change.team });
          break;
        default:
          throw new Error("unknown row change " + change.change);
      }
    }

    const goingSections = new Set(deletedSections.map((change) => change.index));
    removals.sort((a, b) => comparePositions(b.at, a.at));
    for (const removal of removals) {
      expectRow(list, removal.at, removal.id, "delete");
      // A deleted section takes its rows with it.
      if (!goingSections.has(removal.at.section)) list.deleteRow(removal.at.section, removal.at.row);
    }
    deletedSections.sort((a, b) => b.index - a.index);
    for (const change of deletedSections) {
      if (change.index < 0 || change.index >= list.sectionCount()) {
        throw new Error("cannot delete section " + change.index + ": there are " + list.sectionCount());
      }
      list.deleteSection(change.index);
    }
    insertedSections.sort((a, b) => a.index - b.index);
    for (const change of insertedSections) {
      if (change.index < 0 || change.index > list.sectionCount()) {
        throw new Error("cannot insert section " + change.index + ": there are " + list.sectionCount());
      }
      list.insertSection(change.index, change);
    }
    additions.sort((a, b) => comparePositions(a.at, b.at));
    for (const addition of additions) {
      const at = addition.at;
      if (at.section < 0 || at.section >= list.sectionCount() || at.row < 0 || at.row > list.rowCount(at.section)) {
        throw new Error("cannot insert " + addition.id + " at [" + at.section + "," + at.row + "]");
      }
      list.insertRow(at.section, at.row, addition.team, addition.moved);
    }
    for (const update of updates) {
      expectRow(list, update.at, update.id, "update");
      list.updateRow(update.at.section, update.at.row, update.team);
    }
    list.setIndexTitles(batch.indexTitles);
  }

  // A list of plain arrays, for tests and for checking a batch without a page.
  class ModelList {
    constructor(table) {
      this.sections = table.sections.map((section) => ({ name: section.name, title: section.title, teams: section.teams.slice() }));
      this.indexTitles = table.indexTitles.slice();
    }
    sectionCount() { return this.sections.length; }
    rowCount(s) { return this.sections[s].teams.length; }
    rowId(s, r) { return this.sections[s].teams[r].id; }
    deleteRow(s, r) { this.sections[s].teams.splice(r, 1); }
    deleteSection(s) { this.sections.splice(s, 1); }
    insertSection(s, section) { this.sections.splice(s, 0, { name: section.name, title: section.title, teams: [] }); }
    insertRow(s, r, team) { this.sections[s].teams.splice(r, 0, team); }
    updateRow(s, r, team) { this.sections[s].teams[r] = team; }
    setIndexTitles(titles) { this.indexTitles = titles.slice(); }
    table() { return { sections: this.sections, indexTitles: this.indexTitles }; }
  }

  root.WorldCupTable = { applyBatch, ModelList };
})(typeof window !== "undefined" ? window : globalThis);
