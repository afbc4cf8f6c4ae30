// dtlearn's stage: a drawn tree fitted to the space the screen has left, and the classroom's
// keys and full-screen viewer, installed by the same code that paints the tree (a key pressed
// the moment a tree is painted finds its handler there). pages/stage.py mounts it.
//
// Nothing here takes text from a file: the tree arrives as a base64 SVG image (dtlearn escapes
// every name in it, and an SVG shown as an image runs no script).

const TREE = 'img[alt="decision tree"]';

// The element that scrolls the page (Streamlit scrolls its main area, not the window).
const scroller = () => document.querySelector('[data-testid="stMain"]') || document.scrollingElement;

// --- the clicker's keys --------------------------------------------------------------------
// Page Down / -> next, Page Up / <- previous, Home / End first and last, on every page that
// steps, whatever has focus: caught before any widget sees them, they press the page's own
// button (by its key's class, st-key-next, ...). Arrows and Home / End are left to a field
// while the student types in it, and to a menu while its list is open; once a choice is made
// (a menu closed, a field committed with Enter) they step again without a click.
const ACTIONS = {PageDown: "next", ArrowRight: "next", PageUp: "prev", ArrowLeft: "prev", Home: "first", End: "last"};
const BUTTONS = {next: ["next", "prune_next", "quiz_next"], prev: ["prev", "prune_prev"],
                 first: ["first", "prune_first"], last: ["last", "prune_last"]};
// The stage's views in projector mode (tree / numbers): T shows the tree, N the numbers, and a
// clicker's "blank screen" key (B or .) switches between them.
const VIEWS = {t: "tree", n: "numbers", b: "toggle", ".": "toggle"};

const committed = new WeakSet();  // fields whose value was just committed (Enter, or a change)

function typing(target) {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA") return !committed.has(target);
  if (target.tagName !== "INPUT") return false;
  if (target.getAttribute("role") === "combobox") return target.getAttribute("aria-expanded") === "true";
  if (target.getAttribute("role") === "slider") return false;
  if (["range", "checkbox", "radio", "button", "submit"].includes(target.type)) return false;
  return !committed.has(target);
}

// A press while the last press's run is still going waits for it: Streamlit merges the clicks
// of one button that reach it during a run into one, and the second step would be lost.
let clickedAt = -1e9;
const busy = () => Boolean(document.querySelector('[data-testid="stStatusWidget"]')) ||
  performance.now() - clickedAt < 350;  // the run a click starts shows its status a moment later

function press(keys) {
  const button = keys.map((key) => document.querySelector(`.st-key-${key} button`)).find((found) => found);
  if (!button) return false;
  if (!button.disabled) {
    keepScroll();
    clickedAt = performance.now();
    button.click();
  }
  return true;
}

function switchView(wanted) {
  const control = document.querySelector(".st-key-stage_view");
  if (!control) return false;
  const options = [...control.querySelectorAll('button[role="radio"]')];
  const current = options.find((b) => b.getAttribute("aria-checked") === "true");
  const target = wanted === "toggle" ? options.find((b) => b !== current)
    : options.find((b) => b.innerText.trim().toLowerCase().startsWith(wanted));
  if (target && target !== current) {
    clickedAt = performance.now();
    target.click();
  }
  return Boolean(target);
}

// Keys pressed before the page's buttons were drawn, or during the last key's run: each is a
// function that acts and says whether it found its control, with the time it was pressed.
const waiting = [];

function act(deed) {
  if (busy() || waiting.length || !deed()) waiting.push([deed, performance.now()]);
}

function installKeys() {
  if (window.__dtlearnKeys) return;
  window.__dtlearnKeys = true;
  window.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target && target.tagName === "INPUT" || target && target.tagName === "TEXTAREA") {
      if (event.key === "Enter") committed.add(target);
      else if (event.key.length === 1 || event.key === "Backspace" || event.key === "Delete") committed.delete(target);
    }
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const action = ACTIONS[event.key];
    const view = VIEWS[event.key.toLowerCase ? event.key.toLowerCase() : event.key];
    if (!action && !view) return;
    if (typing(target) && !(action && event.key.startsWith("Page"))) return;
    if (view && !action) {
      if (target && target.tagName === "INPUT" && !typing(target) && target.getAttribute("role") !== "combobox" &&
          target.type !== "range" && target.getAttribute("role") !== "slider") return;  // a committed field
      if (!document.querySelector(".st-key-stage_view")) return;  // a page without the views
      event.preventDefault();
      event.stopImmediatePropagation();
      act(() => switchView(view));  // T then B quickly: the second waits for the first's run
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    act(() => press(BUTTONS[action]));
  }, true);
  window.addEventListener("change", (event) => { if (event.target) committed.add(event.target); }, true);
  // A key pressed while the page was still being drawn, or during the last key's run, is pressed
  // when its button is there and the run is over (forgotten after 20 s: a page that never came).
  setInterval(() => {
    while (waiting.length && performance.now() - waiting[0][1] > 20000) waiting.shift();
    if (waiting.length && !busy() && waiting[0][0]()) waiting.shift();
  }, 50);
}

// --- the page stays where it is while stepping ----------------------------------------------
// A step changes heights above what the lecturer looks at (a longer decision, a bigger table, a
// leaf step with no chart at all). What the lecturer last scrolled to is the anchor: the heading
// or chart in view nearest a third of the way down, and where it was on the screen. While a
// step's run draws, the page is scrolled to keep the anchor there; a step without it keeps the
// scroll as it is, and the page does not get shorter under the lecturer (it keeps its height
// while stepping), so the anchor comes back to the same place at the next step that has it.
const ANCHORS = 'h1, h2, h3, [data-testid="stExpander"], [data-testid="stPlotlyChart"], .dtlearn-stage';
let anchor = null;  // {name, index, offset}: set when the lecturer scrolls
let holding = false;

function anchorName(element) {
  return element.matches("h1, h2, h3") ? element.textContent.replace(/\d+/g, "#") : null;
}

function findAnchor(wanted) {
  const all = [...document.querySelectorAll(ANCHORS)];
  if (wanted.name) return all.find((e) => e.matches("h1, h2, h3") && anchorName(e) === wanted.name);
  return all[wanted.index];
}

function takeAnchor() {
  const main = scroller();
  if (!main || main.scrollTop < 1) { anchor = null; return; }
  // what the eye is on: the heading or chart in view nearest a third of the way down the screen
  const rect = main.getBoundingClientRect(), reading = rect.top + main.clientHeight / 3;
  const all = [...document.querySelectorAll(ANCHORS)];
  const seen = all.filter((e) => e.getBoundingClientRect().top >= rect.top &&
                                 e.getBoundingClientRect().top <= rect.top + 0.8 * main.clientHeight);
  const near = seen.sort((a, b) => Math.abs(a.getBoundingClientRect().top - reading) -
                                   Math.abs(b.getBoundingClientRect().top - reading))[0];
  anchor = near ? {name: anchorName(near), index: all.indexOf(near), offset: near.getBoundingClientRect().top,
                   path: location.pathname} : null;
}

function watchScroll() {
  const main = scroller();
  if (!main || main.__dtlearnWatched) return;
  main.__dtlearnWatched = true;
  let timer = null;
  main.addEventListener("scroll", () => {
    if (holding) return;
    clearTimeout(timer);
    timer = setTimeout(takeAnchor, 120);
  }, {passive: true});
}

// The height kept while stepping belongs to one page: another page starts with its own.
function forgetHeight() {
  const block = document.querySelector('[data-testid="stMainBlockContainer"]');
  if (block && block.dataset.heldFor !== location.pathname) {
    block.style.minHeight = "";
    block.dataset.heldFor = location.pathname;
  }
}

function keepScroll() {
  const main = scroller();
  watchScroll();
  if (!main || main.scrollTop < 1) return;
  if (!anchor || anchor.path !== location.pathname) takeAnchor();
  if (!anchor) return;
  const block = document.querySelector('[data-testid="stMainBlockContainer"]');
  if (block) {
    forgetHeight();
    block.style.minHeight = `${Math.max(block.offsetHeight, parseFloat(block.style.minHeight) || 0)}px`;
  }
  const wanted = anchor, started = performance.now();
  let sawRun = false, endedAt = null;
  holding = true;
  const hold = () => {
    const now = findAnchor(wanted);
    if (now) {
      const drift = now.getBoundingClientRect().top - wanted.offset;
      if (Math.abs(drift) > 1) main.scrollTop += drift;
    }
    // until the run the step started has come and gone (a loaded server starts it late)
    const time = performance.now(), running = Boolean(document.querySelector('[data-testid="stStatusWidget"]'));
    if (running) { sawRun = true; endedAt = null; } else if (sawRun && endedAt === null) endedAt = time;
    const done = (endedAt !== null && time - endedAt > 400) || time - started > (sawRun ? 20000 : 3000);
    if (done) holding = false;
    else requestAnimationFrame(hold);
  };
  requestAnimationFrame(hold);
}

// --- the full-screen viewer ------------------------------------------------------------------
// A click on a drawn tree opens it over the whole window: the wheel zooms (around the pointer),
// dragging pans, + / - / 0 zoom in, out and back to fit, Esc closes. The picture follows the
// page while open, so a clicker steps through the tree at full screen.
function installViewer() {
  if (window.__dtlearnViewer) return;
  window.__dtlearnViewer = true;
  const style = document.createElement("style");
  style.textContent = `${TREE} { cursor: zoom-in; }`;
  document.head.appendChild(style);
  let view = null;
  const place = () => {
    view.picture.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
  };
  const fit = () => {
    const w = view.picture.naturalWidth || 800, h = view.picture.naturalHeight || 600;
    view.scale = Math.min((innerWidth - 40) / w, (innerHeight - 70) / h);
    view.x = (innerWidth - w * view.scale) / 2;
    view.y = 50 + (innerHeight - 70 - h * view.scale) / 2;
    place();
  };
  const zoom = (factor, cx = innerWidth / 2, cy = innerHeight / 2) => {
    view.x = cx - (cx - view.x) * factor;
    view.y = cy - (cy - view.y) * factor;
    view.scale *= factor;
    place();
  };
  const close = () => {
    if (!view) return;
    clearInterval(view.follow);
    view.overlay.remove();
    view = null;
  };
  const open = (source) => {
    const overlay = document.createElement("div");
    overlay.setAttribute("data-testid", "dtlearnTreeViewer");
    overlay.style.cssText = "position:fixed;inset:0;background:#fff;z-index:1000000;overflow:hidden;cursor:grab";
    const bar = document.createElement("div");
    bar.style.cssText = "position:absolute;top:0;left:0;right:0;padding:10px 16px;font:16px sans-serif;" +
      "background:#f0f2f6;color:#1f1f1f;z-index:1;display:flex;gap:12px;align-items:center";
    const hint = document.createElement("span");
    hint.textContent = "Scroll to zoom, drag to move, + / − / 0, Esc to close";
    bar.appendChild(hint);
    for (const [label, act] of [["+", () => zoom(1.25)], ["−", () => zoom(0.8)], ["Fit", () => fit()],
                                ["Close", () => close()]]) {
      const button = document.createElement("button");
      button.textContent = label;
      button.style.cssText = "font:16px sans-serif;padding:2px 12px;cursor:pointer";
      button.addEventListener("click", (event) => { event.stopPropagation(); act(); });
      bar.appendChild(button);
    }
    const picture = document.createElement("img");
    picture.alt = "decision tree, full screen";
    picture.style.cssText = "position:absolute;top:0;left:0;transform-origin:0 0;max-width:none";
    picture.draggable = false;
    overlay.append(bar, picture);
    document.body.appendChild(overlay);
    view = {overlay, picture, x: 0, y: 0, scale: 1, source};
    picture.onload = () => { if (view && view.fitted !== view.picture.src) { view.fitted = view.picture.src; fit(); } };
    picture.src = source;
    overlay.addEventListener("wheel", (event) => {
      event.preventDefault();
      zoom(event.deltaY < 0 ? 1.15 : 1 / 1.15, event.clientX, event.clientY);
    }, {passive: false});
    overlay.addEventListener("mousedown", (event) => {
      view.drag = [event.clientX - view.x, event.clientY - view.y];
      overlay.style.cursor = "grabbing";
    });
    overlay.addEventListener("mousemove", (event) => {
      if (!view || !view.drag) return;
      view.x = event.clientX - view.drag[0];
      view.y = event.clientY - view.drag[1];
      place();
    });
    overlay.addEventListener("mouseup", () => { if (view) { view.drag = null; overlay.style.cursor = "grab"; } });
    view.follow = setInterval(() => {  // the page stepped underneath (a clicker): show its new tree
      const current = document.querySelector(TREE);
      if (view && current && current.src !== view.picture.src) view.picture.src = current.src;
    }, 300);
  };
  // The node under a click on a drawn tree: the image's SVG read back, the click put in its
  // coordinates (Graphviz draws inside a translated group), the node whose shape holds it, named
  // by its "node N" text (pages draw node numbers).
  const nodeAt = (image, event) => {
    try {
      const svg = new DOMParser().parseFromString(atob(image.src.split(",")[1]), "image/svg+xml").documentElement;
      const box = image.getBoundingClientRect();
      const [vx, vy, vw, vh] = svg.getAttribute("viewBox").split(/[\s,]+/).map(Number);
      let x = vx + (event.clientX - box.left) / box.width * vw;
      let y = vy + (event.clientY - box.top) / box.height * vh;
      const shift = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(svg.querySelector("g").getAttribute("transform") || "");
      if (shift) { x -= Number(shift[1]); y -= Number(shift[2]); }
      for (const node of svg.querySelectorAll("g.node")) {
        const numbers = [...node.querySelectorAll("polygon, path")]
          .flatMap((shape) => (shape.getAttribute("points") || shape.getAttribute("d") || "").match(/-?[\d.]+/g) || [])
          .map(Number);
        const xs = numbers.filter((_, i) => i % 2 === 0), ys = numbers.filter((_, i) => i % 2 === 1);
        if (xs.length && x >= Math.min(...xs) && x <= Math.max(...xs) && y >= Math.min(...ys) && y <= Math.max(...ys)) {
          const label = [...node.querySelectorAll("text")].map((t) => t.textContent)
            .map((t) => /^node (\d+)/.exec(t)).find((m) => m);
          if (label) return Number(label[1]);
        }
      }
    } catch (error) { /* not a tree we can read: no node */ }
    return null;
  };
  document.addEventListener("click", (event) => {
    const image = event.target.closest && event.target.closest(TREE);
    if (!image || view) return;
    const picked = window.__dtlearnPickNode ? nodeAt(image, event) : null;
    if (picked !== null) window.__dtlearnPickNode(picked);  // a page that shows a node's details
    else open(image.src);
  });
  window.addEventListener("keydown", (event) => {
    if (!view) return;
    if (event.key === "Escape") close();
    else if (event.key === "+" || event.key === "=") zoom(1.25);
    else if (event.key === "-") zoom(0.8);
    else if (event.key === "0") fit();
  });
}

// --- the stage -------------------------------------------------------------------------------
// The box the tree may take: the column's width, and in "fill" mode (projector) the height from
// the stage's top to the bottom of the screen (page at its top); in "rest" mode (another screen)
// that height too when it is at least REST of the screen (a large screen: the tree in view with
// the buttons that step it), else most of a screen, as in "screen" mode (Compare's rows, each
// scrolled to). The server chose what to draw for the box it was last told (data.box); a box
// that differs is reported, and the server draws again for it.
const MARGIN = 12;
const STEP = 8;  // px: boxes are rounded to this, and differences below 3 steps are not reported
const REST = 0.4;

function measure(host, image, mode) {
  const main = scroller();
  const width = Math.floor(host.parentElement.getBoundingClientRect().width);
  let height;
  const most = Math.max(Math.round(innerHeight * 0.8), 300);
  if (mode === "fill" || mode === "rest") {  // from the drawing's top (under the legend) to the bottom of the first screen
    const top = image.getBoundingClientRect().top - main.getBoundingClientRect().top + main.scrollTop;
    const rest = main.clientHeight - top - MARGIN;
    height = mode === "fill" ? Math.max(rest, 160) : rest >= REST * main.clientHeight ? rest : most;
  } else {
    height = most;
  }
  return [Math.floor(width / STEP) * STEP, Math.floor(height / STEP) * STEP];
}

// The classes' colours, codes and names above the drawing (as text: a name from a file is never markup).
function showLegend(legend, entries) {
  const key = JSON.stringify(entries);
  if (legend.dataset.key === key) return;
  legend.dataset.key = key;
  legend.replaceChildren(...entries.map(([code, name, colour]) => {
    const entry = document.createElement("span");
    entry.setAttribute("role", "listitem");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = /^#[0-9a-fA-F]{6}$/.test(colour) ? colour : "#999999";
    const bold = document.createElement("b");
    bold.textContent = code;
    entry.append(swatch, bold);
    if (name !== code) entry.append(` ${name}`);
    return entry;
  }));
}

function draw(host, image, data, box) {
  const [width, height] = box;
  // a scale the server set (Compare: four trees at one) is kept unless the box is smaller than planned
  const fits = Math.min(width / data.width, height / data.height, data.max_scale);
  const scale = data.scale ? Math.min(data.scale, fits) : fits;
  image.style.width = `${data.width * scale}px`;
  image.style.height = `${data.height * scale}px`;
  const reserve = data.mode === "fill" ? height : Math.min(height, data.reserve || 0);
  image.style.marginBottom = `${Math.max(0, reserve - data.height * scale)}px`;  // what is below stays put
}

// The box is measured again when the window or the column changes size: the observers are the
// stage's own (one set per stage element), and read the data of its latest run (a run's data
// captured by an older observer drew with an old drawing's size).
function update(host, report = true) {
  const {data, setStateValue} = host.__stage;
  const image = host.querySelector("img");
  const box = measure(host, image, data.mode);
  // a column not laid out (0 px wide while Streamlit swaps a run's elements): nothing to fit or say;
  // the observer calls again once it has its width (a report of it would cost a run for nothing)
  if (box[0] < 80) return;
  draw(host, image, data, box);
  // Smaller than the box the tree was chosen for: its text would be too small, so say it at once.
  // Larger: only a real change (a wider window, a sidebar closed), not a shorter decision above
  // (the server chose for a box data.slack shorter than measured, so that steps do not rerun).
  const planned = data.box || [0, 0], known = data.measured || planned;
  const moved = box[0] < planned[0] || box[1] < planned[1] || Math.abs(box[0] - known[0]) > 3 * STEP ||
    box[1] > known[1] + 2 * (data.slack || 0) + 3 * STEP;
  const said = host.__reported;
  // a stage that shares its box with another (Compare's four) leaves saying it to that one
  if (report && moved && data.reports !== false && !(said && said[0] === box[0] && said[1] === box[1] && said[2] === data.src)) {
    host.__reported = [box[0], box[1], data.src];
    setStateValue("box", box);
  }
  // for tests and the curious: whether the drawing was chosen for the box it is in
  host.dataset.fitted = moved ? "no" : "yes";
}

export default function (component) {
  const {parentElement, data, setStateValue} = component;
  installKeys();
  installViewer();
  watchScroll();
  forgetHeight();
  const host = parentElement.querySelector(".dtlearn-stage");
  host.__stage = {data, setStateValue};
  const image = host.querySelector("img");
  showLegend(host.querySelector(".dtlearn-legend"), data.legend || []);
  image.alt = data.alt || "decision tree";
  if (image.getAttribute("src") !== data.src) image.setAttribute("src", data.src);
  // drawn at once, its box said once the layout has held still for 150 ms: a projector's sidebar
  // closing as the page first draws would otherwise be measured mid-way, and said twice (two runs)
  update(host, false);
  if (!host.__observer) {
    let timer = null;
    const later = () => { clearTimeout(timer); timer = setTimeout(() => host.isConnected && update(host), 150); };
    host.__later = later;
    host.__observer = new ResizeObserver(later);
    host.__observer.observe(host.parentElement);
    window.addEventListener("resize", later);
    host.__forget = () => { host.__observer.disconnect(); window.removeEventListener("resize", later); };
  }
  host.__later();
  return () => {
    if (host.isConnected) return;  // a new run's data for the same stage: it keeps its observers
    host.__forget();
    host.__observer = null;
  };
}
