// The self-check page: choose an exercise, paste or drop a report, and see what
// POST /api/grade answers (the JSON of `grade REPORT --format json`) beside the report's
// own lines.  Everything the learner wrote is put on the page as text nodes
// (textContent, append of strings): never parsed as HTML.
"use strict";

(() => {
  const DEBOUNCE_MS = 600;
  const REVIEW_NOTE =
    "Flagged for review: the evidence is partial or conflicting, so this verdict is the " +
    "grader's best reading; an instructor may look again.";
  const $ = (id) => document.getElementById(id);
  const state = {
    exercises: new Map(),
    maxBytes: 1000000,
    name: "report.md",
    timer: 0,
    seq: 0,
    controller: null,
  };

  // An element with attributes and children; strings become text nodes.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === false || value === null || value === undefined) continue;
      if (key === "class") node.className = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child !== null && child !== undefined && child !== false) node.append(child);
    }
    return node;
  }

  function setStatus(message, isError) {
    const status = $("status");
    status.textContent = message;
    status.classList.toggle("error", Boolean(isError));
  }

  function remember(key, value) {
    try {
      sessionStorage.setItem(key, value);
    } catch (e) {
      /* storage full or off: the draft is simply not kept */
    }
  }

  function recall(key) {
    try {
      return sessionStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }

  function current() {
    return state.exercises.get($("exercise").value);
  }

  function showExercise() {
    const ex = current();
    if (!ex) return;
    $("show-text").textContent = ex.show;
    $("download-template").href = "/api/template/" + encodeURIComponent(ex.id);
    $("download-template").setAttribute("download", ex.id + "-report.md");
    remember("exercise", ex.id);
  }

  async function loadExercises() {
    let data;
    try {
      const response = await fetch("/api/exercises");
      data = await response.json();
      if (!response.ok) throw new Error(data.error || "status " + response.status);
    } catch (e) {
      setStatus("Could not load the exercises: " + e.message, true);
      return;
    }
    state.maxBytes = data.max_bytes;
    const select = $("exercise");
    select.replaceChildren();
    for (const ex of data.exercises) {
      state.exercises.set(ex.id, ex);
      select.append(el("option", { value: ex.id }, ex.id + " \u2014 " + ex.title));
    }
    const wanted = new URLSearchParams(location.search).get("exercise") || recall("exercise");
    if (wanted && state.exercises.has(wanted)) select.value = wanted;
    select.disabled = false;
    showExercise();
    const draft = recall("draft");
    if (draft && !$("report").value) {
      $("report").value = draft;
      state.name = recall("name") || state.name;
      grade("restore");
    }
  }

  function schedule() {
    remember("draft", $("report").value);
    clearTimeout(state.timer);
    if ($("live").checked) state.timer = setTimeout(() => grade("typing"), DEBOUNCE_MS);
  }

  async function grade(reason) {
    clearTimeout(state.timer);
    const text = $("report").value;
    const ex = current();
    if (!ex) return;
    if (!text.trim()) {
      if (reason === "button") setStatus("Paste or type a report first.", true);
      return;
    }
    const size = new TextEncoder().encode(text).length;
    if (size > state.maxBytes) {
      setStatus(
        "Your report is " + size.toLocaleString() + " bytes; a report may be at most " +
          state.maxBytes.toLocaleString() + " bytes.",
        true,
      );
      return;
    }
    if (state.controller) state.controller.abort();
    const controller = new AbortController();
    state.controller = controller;
    const seq = ++state.seq;
    setStatus("Grading\u2026");
    let response;
    let data;
    try {
      response = await fetch("/api/grade", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ exercise: ex.id, report: text, name: state.name }),
        signal: controller.signal,
      });
      data = await response.json().catch(() => ({ error: "the server answered " + response.status }));
    } catch (e) {
      if (e.name !== "AbortError" && seq === state.seq) {
        setStatus("Could not reach the grader: " + e.message, true);
      }
      return;
    }
    if (seq !== state.seq) return; // a newer grading is on its way
    if (!response.ok) {
      setStatus(data.error || "the server answered " + response.status, true);
      return;
    }
    render(data, text);
    setStatus("Graded " + data.exercise + " at " + new Date().toLocaleTimeString() + ".");
  }

  function evidenceLine(c) {
    if (c.evidence.line === null) {
      return el("p", { class: "evidence" }, "No line of your report decided it: " + c.evidence.text);
    }
    const quote = c.evidence.text.length > 200 ? c.evidence.text.slice(0, 197) + "\u2026" : c.evidence.text;
    return el(
      "p",
      { class: "evidence" },
      el("a", { href: "#line-" + c.evidence.line, "data-line": c.evidence.line }, "Line " + c.evidence.line),
      ": ",
      el("q", {}, quote),
    );
  }

  function criterionItem(c) {
    const verdict = c.passed ? "pass" : "fail";
    const points = c.points + "/" + c.max_points + (c.bonus ? " bonus" : "");
    // As `grade REPORT` shows it; a detail that only repeats what was looked for is left out.
    const showDetail =
      c.detail && (!c.passed || c.evidence.line === null || c.review) && c.detail !== c.evidence.text;
    const explainId = "explain-" + c.id;
    return el(
      "li",
      { class: "criterion " + verdict, id: "crit-" + c.id, tabindex: "-1" },
      el(
        "h3",
        {},
        el("span", { class: "verdict" }, c.passed ? "PASS" : "FAIL"),
        el("span", {}, c.title),
        el("span", { class: "cid" }, c.id),
        c.review ? el("span", { class: "review-flag" }, "review") : null,
        el("span", { class: "points" }, points),
      ),
      el("p", { class: "feedback" }, c.feedback),
      evidenceLine(c),
      showDetail ? el("p", { class: "detail" }, "(" + c.detail + ")") : null,
      c.review ? el("p", { class: "review-flag" }, REVIEW_NOTE) : null,
      c.hint ? el("p", { class: "hint" }, c.hint) : null,
      el(
        "button",
        { type: "button", class: "link explain", "data-criterion": c.id, "aria-expanded": "false", "aria-controls": explainId },
        "What does this criterion judge?",
      ),
      el("div", { class: "explain-text", id: explainId, hidden: true }),
    );
  }

  function render(data, text) {
    $("result-empty").hidden = true;
    $("result-body").hidden = false;
    $("score").textContent = "Score " + data.score + " / " + data.max_score;
    $("letter").textContent = data.grade;
    const b = data.bottleneck;
    $("expected").textContent =
      "Expected diagnosis: " + b.expected + ". " + b.evidence.slice(0, 2).join("; ") + ".";
    const flagged = data.criteria.filter((c) => c.review).length;
    $("flagged").hidden = flagged === 0;
    $("flagged").textContent =
      flagged + " verdict" + (flagged > 1 ? "s" : "") + " flagged for a person to check.";
    $("warnings").replaceChildren(...data.warnings.map((w) => el("li", {}, "Warning: " + w)));
    $("criteria").replaceChildren(...data.criteria.map(criterionItem));
    renderLines(text, data.criteria);
  }

  function renderLines(text, criteria) {
    const byLine = new Map();
    for (const c of criteria) {
      if (c.evidence.line === null) continue;
      if (!byLine.has(c.evidence.line)) byLine.set(c.evidence.line, []);
      byLine.get(c.evidence.line).push(c);
    }
    const rows = text.split("\n").map((line, i) => {
      const n = i + 1;
      const hits = byLine.get(n) || [];
      const classes = ["line"];
      if (hits.length) classes.push("hit");
      if (hits.some((c) => !c.passed)) classes.push("failed");
      return el(
        "div",
        { class: classes.join(" "), id: "line-" + n, tabindex: hits.length ? "-1" : null },
        el("a", { class: "ln", href: "#line-" + n, "aria-label": "line " + n }, String(n)),
        el("span", { class: "text" }, line),
        hits.length
          ? el(
              "span",
              { class: "marks" },
              ...hits.map((c) =>
                el(
                  "a",
                  { class: "mark " + (c.passed ? "pass" : "fail"), href: "#crit-" + c.id },
                  (c.passed ? "\u2713 " : "\u2717 ") + c.id,
                ),
              ),
            )
          : null,
      );
    });
    $("lines").replaceChildren(...rows);
  }

  async function explain(button) {
    const box = $("explain-" + button.dataset.criterion);
    const open = button.getAttribute("aria-expanded") === "true";
    button.setAttribute("aria-expanded", String(!open));
    box.hidden = open;
    if (open || box.textContent) return;
    try {
      const response = await fetch("/api/explain/" + encodeURIComponent(button.dataset.criterion));
      const data = await response.json();
      box.textContent = response.ok ? data.text : data.error;
    } catch (e) {
      box.textContent = "Could not load the explanation: " + e.message;
    }
  }

  async function readFile(file) {
    if (!/\.(md|markdown|txt)$/i.test(file.name)) {
      setStatus("Open a .md or .txt file (" + file.name + " is neither).", true);
      return;
    }
    if (file.size > state.maxBytes) {
      setStatus(file.name + " is " + file.size.toLocaleString() + " bytes; a report may be at most " +
        state.maxBytes.toLocaleString() + " bytes.", true);
      return;
    }
    $("report").value = await file.text();
    state.name = file.name;
    remember("name", file.name);
    remember("draft", $("report").value);
    grade("file");
  }

  function useTemplate() {
    const ex = current();
    if (!ex) return;
    const area = $("report");
    if (area.value.trim() && !confirm("Replace your report with the blank template for " + ex.id + "?")) return;
    area.value = ex.template;
    state.name = "report.md";
    remember("draft", area.value);
    area.focus();
  }

  function flash(target) {
    if (!target) return;
    target.classList.add("flash");
    setTimeout(() => target.classList.remove("flash"), 1500);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const area = $("report");
    $("exercise").addEventListener("change", () => {
      showExercise();
      if (area.value.trim()) grade("exercise");
    });
    $("use-template").addEventListener("click", useTemplate);
    $("grade").addEventListener("click", () => grade("button"));
    area.addEventListener("input", schedule);
    area.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        grade("button");
      }
    });
    $("file").addEventListener("change", (e) => {
      if (e.target.files.length) readFile(e.target.files[0]);
      e.target.value = "";
    });
    area.addEventListener("dragover", (e) => {
      e.preventDefault();
      area.classList.add("dropping");
    });
    area.addEventListener("dragleave", () => area.classList.remove("dropping"));
    area.addEventListener("drop", (e) => {
      e.preventDefault();
      area.classList.remove("dropping");
      if (e.dataTransfer.files.length) readFile(e.dataTransfer.files[0]);
    });
    document.addEventListener("click", (e) => {
      const button = e.target.closest("button.explain");
      if (button) explain(button);
      const link = e.target.closest("a[href^='#line-'], a[href^='#crit-']");
      if (link) setTimeout(() => flash(document.getElementById(link.hash.slice(1))), 0);
    });
    loadExercises();
  });
})();
