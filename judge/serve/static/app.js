// The pages' only script (the Content-Security-Policy allows no other): it keeps a submission's status, the list
// of my submissions and the scoreboard up to date from the JSON API, without reloading. Everything it shows is
// set as textContent, never as HTML, so what a student wrote or printed stays text.
"use strict";

const POLL_MS = 1000;

function cell(row, text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text;
  row.appendChild(td);
  return td;
}

function verdictCell(row, verdict, fallback) {
  const td = document.createElement("td");
  const span = document.createElement("span");
  span.className = verdict ? "verdict v-" + verdict : "";
  span.textContent = verdict || fallback;
  td.appendChild(span);
  row.appendChild(td);
}

async function fetchJson(url) {
  const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(url + ": " + response.status);
  return response.json();
}

function when(seconds) {
  return new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

// A submission's document is its status and, under "result", the result in judge's own JSON shape
// (SubmissionResult.to_dict(), as the caller's feedback policy shows it): what `judge run --json` writes.
function passed(result) {
  return result.cases.filter((test) => test.verdict === "AC").length;
}

function number(value) {
  return String(Number(value.toPrecision(6))); // as Python's "%g" writes a score
}

function scoreShown(result) {
  if (result.score === null) return "";
  return result.max_score === null ? number(result.score) : number(result.score) + "/" + number(result.max_score);
}

// The problem's tests a judged submission did not run (after the first failure, as BOJ stops), as pages.py's
// not_run: the page lists the test names.
function notRun(doc) {
  const result = doc.result;
  if (doc.status !== "done" || result === null || result.verdict === "CE") return [];
  const ran = new Set(result.cases.map((test) => test.name));
  const names = Array.from(document.querySelectorAll("#test-names li"), (item) => item.textContent);
  return names.filter((name) => !ran.has(name));
}

function drawSubmission(live, doc) {
  const result = doc.result;
  const status = document.getElementById("status");
  status.textContent = doc.status === "done" ? doc.verdict + " (" + doc.verdict_name + ")"
    : doc.progress ? doc.status + ": " + doc.progress : doc.status;
  live.dataset.status = doc.status;
  const summary = document.getElementById("summary");
  summary.textContent = result === null ? ""
    : passed(result) + "/" + result.cases.length + " tests passed " + scoreShown(result);
  const compile = document.getElementById("compile-message");
  compile.textContent = result === null ? "" : result.compile_message;
  compile.hidden = !compile.textContent;
  const body = document.querySelector("#tests tbody");
  body.replaceChildren();
  let said = { text: "", test: "" }; // a message repeated on the next rows is shown once (as the page does)
  for (const test of result === null ? [] : result.cases) {
    const row = document.createElement("tr");
    cell(row, test.name);
    verdictCell(row, test.verdict, "");
    cell(row, test.cpu_seconds.toFixed(3));
    cell(row, test.wall_seconds.toFixed(3));
    cell(row, test.peak_mib.toFixed(1));
    body.appendChild(row);
    const text = test.message + (test.diff ? "\n" + test.diff : "");
    if (!text) continue;
    const under = document.createElement("tr"); // the message on its own row under the test's: readable on a phone
    under.className = "test-message";
    const message = cell(under, "");
    message.colSpan = 5;
    if (text === said.text) {
      const same = document.createElement("span");
      same.className = "same";
      same.textContent = "as test " + said.test;
      message.appendChild(same);
    } else {
      const pre = document.createElement("pre");
      pre.textContent = text;
      message.appendChild(pre);
      said = { text: text, test: test.name };
    }
    body.appendChild(under);
  }
  for (const name of notRun(doc)) {
    const row = document.createElement("tr");
    row.className = "not-run";
    cell(row, name);
    cell(row, "not run").colSpan = 4;
    body.appendChild(row);
  }
  const hints = document.getElementById("hints");
  hints.replaceChildren();
  for (const hint of result === null ? [] : result.hints) {
    const item = document.createElement("li");
    item.textContent = hint;
    hints.appendChild(item);
  }
  if (doc.error) {
    summary.textContent = "judge error: " + doc.error;
  }
}

function drawMine(table, docs) {
  const body = table.querySelector("tbody");
  body.replaceChildren();
  for (const doc of docs) {
    const row = document.createElement("tr");
    const first = cell(row, "");
    const link = document.createElement("a");
    link.href = "/submissions/" + encodeURIComponent(doc.id);
    link.textContent = String(doc.id);
    first.appendChild(link);
    cell(row, doc.problem);
    cell(row, doc.language);
    cell(row, when(doc.submitted_at));
    verdictCell(row, doc.verdict, doc.status);
    body.appendChild(row);
  }
}

function drawScoreboard(table, board) {
  const head = table.querySelector("thead tr");
  head.replaceChildren();
  for (const title of ["rank", "student", "solved", "penalty", "points", ...board.problems]) {
    const th = document.createElement("th");
    th.textContent = title;
    head.appendChild(th);
  }
  const body = table.querySelector("tbody");
  body.replaceChildren();
  for (const entry of board.rows) {
    const row = document.createElement("tr");
    for (const value of [entry.rank, entry.name, entry.solved, entry.penalty, entry.points]) cell(row, String(value));
    for (const problem of board.problems) {
      const c = entry.cells[problem];
      let text = "";
      if (c.solved) text = "+" + (c.attempts ? c.attempts : "") + " " + c.minutes + "'";
      else if (c.attempts) text = "-" + c.attempts;
      if (c.points !== null) text += " " + c.points;
      if (c.pending) text += " ?" + c.pending;
      cell(row, text, c.solved ? "solved" : c.attempts ? "failed" : "");
    }
    body.appendChild(row);
  }
  document.getElementById("frozen").hidden = !board.frozen;
}

function poll(load, draw, keepGoing) {
  const step = async () => {
    try {
      const data = await load();
      draw(data);
      if (!keepGoing(data)) return;
    } catch (error) {
      // a restarting server or a lost connection: try again at the next tick
    }
    setTimeout(step, POLL_MS);
  };
  step();
}

document.addEventListener("DOMContentLoaded", () => {
  const live = document.getElementById("live");
  if (live && live.dataset.status !== "done") {
    const url = "/api/submissions/" + encodeURIComponent(live.dataset.submission);
    poll(() => fetchJson(url), (doc) => drawSubmission(live, doc), (doc) => doc.status !== "done");
  }
  const mine = document.getElementById("my-submissions");
  if (mine) poll(() => fetchJson(mine.dataset.poll), (docs) => drawMine(mine, docs), () => true);
  const board = document.getElementById("scoreboard");
  if (board) poll(() => fetchJson(board.dataset.poll), (data) => drawScoreboard(board, data), () => true);
});
