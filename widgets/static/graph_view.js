// GraphView's front end (anywidget ESM): shows the SVG Python rendered and replays
// the backward pass in the browser. Python sends, once per change, the SVG and a
// list of steps; each step names the box to highlight, the arrows that carry a
// gradient (with its text), and the grad rows whose text changes. The view state
// is only "how many steps are applied" (k); paint() redraws it from scratch, so
// Step, Play and Reset cannot drift out of sync with what Python recorded.
//
// The words come from Python (the `labels` trait, in the lesson's language), and
// so does the caption before any Step (`caption`: it depends on whether backward
// already ran). Each view tells Python when it appears and when it goes, so that
// a view nobody sees any more (its cell re-run or cleared) stops listening. A
// burst of redraws is applied once, on the next animation frame.

let nextViewId = 0;

function button(label, title) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "mg-button";
  b.textContent = label;
  b.title = title;
  return b;
}


function fill(template, values) {
  return String(template || "").replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
}

function render({ model, el }) {
  const say = (key, values = {}) => fill((model.get("labels") || {})[key] || key, values);
  el.classList.add("mg-view");
  const bar = document.createElement("div");
  bar.className = "mg-bar";
  const stepB = button(say("step"), say("step_title"));
  const playB = button(say("play"), say("play_title"));
  const resetB = button(say("reset"), say("reset_title"));
  const counter = document.createElement("span");
  counter.className = "mg-counter";
  bar.append(stepB, playB, resetB, counter);
  const readout = document.createElement("div");
  readout.className = "mg-readout";
  const stage = document.createElement("div");
  stage.className = "mg-stage";
  const note = document.createElement("div");
  note.className = "mg-note";
  el.append(bar, readout, stage, note);

  let steps = [];
  let k = 0; // steps applied
  let fresh = true; // the state as Python sent it: nothing highlighted
  let timer = null;
  let cells = new Map(); // cell id -> [element, before, after, step index]
  let els = new Map(); // stable id (T0, F1, E2, T1_grad) -> SVG element, indexed once per load
  const byId = (id) => (id ? els.get(id) || null : null);

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playB.textContent = say("play");
  }

  function load() {
    stop();
    const svg = model.get("svg");
    if (svg) {
      stage.innerHTML = svg;
    } else {
      const pre = document.createElement("pre");
      pre.className = "mg-text";
      pre.textContent = model.get("text");
      stage.replaceChildren(pre);
    }
    steps = model.get("steps") || [];
    els = new Map();
    for (const e of stage.querySelectorAll('[id^="mg_"]')) els.set(e.id.slice(3), e);
    cells = new Map();
    steps.forEach((step, i) => {
      for (const [id, before, after] of step.cells || []) {
        const box = byId(id);
        const text = box ? box.querySelector("text") : null;
        if (text) cells.set(id, [text, before, after, i]);
      }
    });
    note.textContent = [model.get("note"), model.get("error")].filter(Boolean).join("\n");
    note.classList.toggle("mg-error", Boolean(model.get("error")));
    k = model.get("predicted") ? 0 : steps.length;
    fresh = true;
    paint();
  }

  function paint() {
    const predicted = model.get("predicted");
    for (const e of stage.querySelectorAll(".mg-active, .mg-done, .mg-waiting, .mg-sending, .mg-pending")) {
      e.classList.remove("mg-active", "mg-done", "mg-waiting", "mg-sending", "mg-pending");
    }
    steps.forEach((step, i) => {
      const node = byId(step.node);
      const edges = (step.edges || []).map(([id]) => id);
      if (step.in_edge) edges.push(step.in_edge[0]);
      if (node && !fresh) node.classList.add(i < k - 1 ? "mg-done" : i === k - 1 ? "mg-active" : "mg-waiting");
      for (const id of edges) {
        const edge = byId(id);
        if (!edge) continue;
        if (i >= k) edge.classList.add("mg-pending");
        else if (i === k - 1 && !fresh) edge.classList.add("mg-sending");
      }
    });
    for (const [text, before, after, i] of cells.values()) text.textContent = i < k ? after : before;
    const n = steps.length;
    counter.textContent = n ? say("counter", { k, n }) : say("no_steps");
    stepB.disabled = playB.disabled = resetB.disabled = n === 0;
    el.dataset.step = String(k);
    el.dataset.active = k > 0 && !fresh ? steps[k - 1].node : "";
    if (n === 0) readout.textContent = say("no_graph");
    else if (fresh) readout.textContent = model.get("caption");
    else if (k === 0) readout.textContent = predicted ? say("before") : say("before_recorded");
    else readout.textContent = `${k}. ${steps[k - 1].text}`;
  }

  function step() {
    if (!steps.length) return false;
    if (k >= steps.length) k = 0;
    k += 1;
    fresh = false;
    paint();
    return k < steps.length;
  }

  stepB.addEventListener("click", () => {
    stop();
    step();
  });
  resetB.addEventListener("click", () => {
    stop();
    k = 0;
    fresh = false;
    paint();
  });
  playB.addEventListener("click", () => {
    if (timer !== null) return stop();
    if (k >= steps.length) {
      k = 0;
      fresh = false;
      paint();
    }
    playB.textContent = say("pause");
    timer = setInterval(() => {
      if (!step()) stop();
    }, Math.max(50, model.get("interval")));
  });

  // Several redraws in one burst (a loop, a slider drag) are applied once per frame.
  let frame = null;
  const schedule = () => {
    if (frame !== null) return;
    frame = requestAnimationFrame(() => {
      frame = null;
      load();
    });
  };
  model.on("change:revision", schedule);
  load();
  const viewId = `${Date.now().toString(36)}-${nextViewId++}`;
  model.send({ event: "mount", view: viewId });
  return () => {
    stop();
    if (frame !== null) cancelAnimationFrame(frame);
    model.off("change:revision", schedule);
    try {
      model.send({ event: "unmount", view: viewId });
    } catch (e) {
      // the kernel is gone: nothing is listening any more
    }
  };
}

export default { render };
