// The pages' only script (the Content-Security-Policy allows no other): it keeps a submission's status, the list
// of my submissions and the scoreboard up to date from the JSON API, without reloading; it shows every <time> in
// the reader's local time and counts down to the contest's opening or closing. Everything it shows is
// set as textContent, never as HTML, so what a student wrote or printed stays text.
// It also keeps the questions on a problem's page and their answers up to date (clarifications.py).
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

const LOCAL_TIME = { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" };

// A moment as the pages write it: <time datetime="UTC">, its text in the reader's local time.
function timeElement(seconds) {
  const element = document.createElement("time");
  element.dateTime = new Date(seconds * 1000).toISOString().slice(0, 19) + "Z";
  element.textContent = new Date(seconds * 1000).toLocaleString([], LOCAL_TIME);
  return element;
}

function localTimes() {
  for (const element of document.querySelectorAll("time[datetime]")) {
    element.textContent = new Date(element.dateTime).toLocaleString([], LOCAL_TIME);
  }
}

// As contest.py's countdown says it.
function countdown(seconds) {
  const left = Math.max(0, Math.floor(seconds));
  const days = Math.floor(left / 86400), hours = Math.floor(left / 3600) % 24;
  const minutes = Math.floor(left / 60) % 60, rest = left % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days) return days + " d " + hours + " h";
  if (hours) return hours + " h " + two(minutes) + " min";
  if (minutes) return minutes + " min " + two(rest) + " s";
  return rest + " s";
}

function countDown() {
  for (const element of document.querySelectorAll(".countdown[data-until]")) {
    const left = Number(element.dataset.until) - Date.now() / 1000;
    element.textContent = left > 0 ? "in " + countdown(left) : "now";
  }
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
    cell(row, doc.language_name);
    cell(row, "").appendChild(timeElement(doc.submitted_at));
    verdictCell(row, doc.verdict, doc.status);
    body.appendChild(row);
  }
}

function drawScoreboard(table, board) {
  const head = table.querySelector("thead tr");
  head.replaceChildren();
  const totals = board.scored ? ["rank", "student", "solved", "penalty", "points"] : ["rank", "student", "solved", "penalty"];
  for (const title of [...totals, ...board.problems]) {
    const th = document.createElement("th");
    th.textContent = title;
    head.appendChild(th);
  }
  const body = table.querySelector("tbody");
  body.replaceChildren();
  for (const entry of board.rows) {
    const row = document.createElement("tr");
    const figures = [entry.rank, entry.name, entry.solved, entry.penalty];
    if (board.scored) figures.push(entry.points);
    for (const value of figures) cell(row, String(value));
    for (const problem of board.problems) {
      const c = entry.cells[problem];
      let text = "";
      if (c.solved) text = "+" + (c.attempts ? c.attempts : "") + " " + c.minutes + "'";
      else if (c.attempts) text = "-" + c.attempts;
      if (c.points !== null) text += " " + c.points;
      if (c.late) text += " " + c.late;
      if (c.pending) text += " ?" + c.pending;
      cell(row, text, c.solved ? "solved" : c.attempts ? "failed" : "");
    }
    body.appendChild(row);
  }
  document.getElementById("frozen").hidden = !board.frozen;
}

// The questions on a problem's page: the student's own and those answered to everyone, as the API returns them
// (every answer arrives without a reload; the list is the server's, filtered to this problem).
const CLARIFICATIONS_POLL_MS = 3000;

function drawClarifications(list, docs) {
  list.replaceChildren();
  for (const doc of docs.filter((each) => each.problem === list.dataset.problem)) {
    const item = document.createElement("li");
    item.className = "clarification";
    const head = document.createElement("p");
    head.appendChild(timeElement(doc.asked_at));
    head.appendChild(document.createTextNode(
      (doc.mine ? " you asked" : " asked") + (doc.to_everyone ? " (answered to everyone)" : "") + ":"));
    item.appendChild(head);
    const question = document.createElement("pre");
    question.className = "question";
    question.textContent = doc.question;
    item.appendChild(question);
    const answer = document.createElement(doc.answer === null ? "p" : "pre");
    answer.className = doc.answer === null ? "unanswered" : "answer";
    answer.textContent = doc.answer === null ? "not answered yet" : doc.answer;
    item.appendChild(answer);
    list.appendChild(item);
  }
}

function poll(load, draw, keepGoing, every = POLL_MS) {
  const step = async () => {
    try {
      const data = await load();
      draw(data);
      if (!keepGoing(data)) return;
    } catch (error) {
      // a restarting server or a lost connection: try again at the next tick
    }
    setTimeout(step, every);
  };
  step();
}

document.addEventListener("DOMContentLoaded", () => {
  localTimes();
  countDown();
  setInterval(countDown, 1000);
  const zone = document.querySelector("#zone[data-browser-zone]"); // the teacher's zone, until one is saved
  if (zone && !zone.value) zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  const live = document.getElementById("live");
  if (live && live.dataset.status !== "done") {
    const url = "/api/submissions/" + encodeURIComponent(live.dataset.submission);
    poll(() => fetchJson(url), (doc) => drawSubmission(live, doc), (doc) => doc.status !== "done");
  }
  const mine = document.getElementById("my-submissions");
  if (mine) poll(() => fetchJson(mine.dataset.poll), (docs) => drawMine(mine, docs), () => true);
  const board = document.getElementById("scoreboard");
  if (board) poll(() => fetchJson(board.dataset.poll), (data) => drawScoreboard(board, data), () => true);
  const questions = document.getElementById("clarification-list");
  if (questions) {
    const draw = (docs) => drawClarifications(questions, docs);
    poll(() => fetchJson(questions.dataset.poll), draw, () => true, CLARIFICATIONS_POLL_MS);
  }
});

// A counterexample being searched for (submission_counterexample.html): look every POLL_MS, and once it is done,
// show the page again, which draws what was found.
document.addEventListener("DOMContentLoaded", () => {
  const pending = document.querySelector("#counterexample[data-pending]");
  if (!pending) return;
  const done = (doc) => doc.status === "done";
  poll(() => fetchJson(pending.dataset.poll), (doc) => { if (done(doc)) window.location.reload(); }, (doc) => !done(doc));
});
