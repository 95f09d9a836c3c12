// marsgen serve: keeps an open page in step with the site as it is rebuilt.
// Added to pages by the server only; never part of the built site.
//
// After each rebuild the server sends one "build" event listing the site paths written and
// deleted. When this page is among them, its new HTML is fetched and its sections are
// diffed by data-diff-id / data-diff-hash, as ListDiff does: inserted sections slide in,
// deleted ones fade out, moved ones glide, updated ones are replaced in place. Anything
// else that changed (head, layout) reloads the page, keeping the scroll position.
(() => {
  "use strict";
  if (window.__marsgenLive) return;
  const script = document.currentScript;
  const home = (script && script.dataset.home) || "/";
  const reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const SCROLL_KEY = "marsgen-live-scroll";
  const state = { generation: null, builds: 0, refreshes: 0, reloads: 0, lastUpdate: null, source: null };
  window.__marsgenLive = state;

  // The page as the server names it: "/sol/12/" for "/sol/12/index.html".
  const here = () => location.pathname.replace(/index\.html$/, "");

  function connect() {
    const source = new EventSource("/_marsgen/events");
    state.source = source;
    source.addEventListener("hello", (event) => {
      const hello = JSON.parse(event.data);
      showFailure(hello.failure);
      // Reconnected after a restart or missed builds: the page may be stale.
      if (state.generation !== null && state.generation !== hello.generation) refresh();
      state.generation = hello.generation;
    });
    source.addEventListener("build", (event) => onBuild(JSON.parse(event.data)));
    source.onerror = () => {
      // EventSource retries by itself unless the server answered with an error.
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 1000);
    };
  }

  function onBuild(update) {
    state.generation = update.generation;
    state.builds += 1;
    state.lastUpdate = update;
    showFailure(update.failure);
    if (update.failure) return;
    // For a page's own scripts (the search page's, which loads its index again).
    document.dispatchEvent(new CustomEvent("marsgen:built", { detail: { written: update.written, deleted: update.deleted } }));
    const path = here();
    if (update.deleted.includes(path)) return pageDeleted();
    swapStylesheets(update.written);
    if (update.written.includes(path)) refresh();
  }

  // MARK: Stylesheets

  function swapStylesheets(written, hrefs) {
    for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
      const url = new URL(link.href, location.href);
      const wanted = hrefs && hrefs.get(url.pathname);
      if (!wanted && !written.includes(url.pathname)) continue;
      const fresh = link.cloneNode();
      const next = new URL(wanted || link.href, location.href);
      next.searchParams.set("marsgen", String(Date.now()));
      fresh.href = next.pathname + next.search;
      fresh.addEventListener("load", () => link.remove(), { once: true });
      fresh.addEventListener("error", () => fresh.remove(), { once: true });
      link.after(fresh);
    }
  }

  // MARK: Page diff

  let refreshing = null;
  let again = false;

  function refresh() {
    // One fetch at a time; a build that lands meanwhile triggers one more.
    if (refreshing) { again = true; return refreshing; }
    refreshing = fetch(location.href, { cache: "no-store", headers: { "X-Marsgen-Live": "1" } })
      .then((response) => {
        if (response.status === 404) return pageDeleted();
        if (!response.ok) return;
        return response.text().then(apply);
      })
      .catch(() => {})
      .finally(() => {
        refreshing = null;
        if (again) { again = false; refresh(); }
      });
    return refreshing;
  }

  function apply(html) {
    const fresh = new DOMParser().parseFromString(html, "text/html");
    const before = frame(document);
    const after = frame(fresh);
    if (before.html !== after.html) return reload();
    const hrefs = new Map();
    after.stylesheets.forEach((href, index) => {
      if (href !== before.stylesheets[index]) hrefs.set(new URL(before.stylesheets[index], location.href).pathname, href);
    });
    if (hrefs.size) swapStylesheets([], hrefs);
    if (document.title !== fresh.title) document.title = fresh.title;
    const oldContainers = containers(document);
    const newContainers = containers(fresh);
    for (const [key, container] of oldContainers) {
      const target = newContainers.get(key);
      if (target) diffSections(container, target);
    }
    state.refreshes += 1;
    document.dispatchEvent(new CustomEvent("marsgen:updated"));
  }

  // The page without its sections, scripts or stylesheet addresses: what must match for
  // a diff of sections to be the whole change.
  function frame(doc) {
    const copy = doc.documentElement.cloneNode(true);
    copy.querySelectorAll("section[data-diff-id]").forEach((section) => section.remove());
    copy.querySelectorAll("script[data-marsgen-live], #marsgen-overlay, #marsgen-notice").forEach((node) => node.remove());
    const stylesheets = [];
    copy.querySelectorAll('link[rel="stylesheet"]').forEach((link) => {
      stylesheets.push(link.getAttribute("href"));
      link.removeAttribute("href");
    });
    const title = copy.querySelector("title");
    if (title) title.textContent = "";
    copy.querySelectorAll("details").forEach((details) => details.removeAttribute("open"));
    copy.querySelectorAll("[data-marsgen-positioned]").forEach((node) => {
      node.removeAttribute("data-marsgen-positioned");
      node.style.removeProperty("position");
      if (node.getAttribute("style") === "") node.removeAttribute("style");
    });
    return { html: copy.outerHTML.replace(/>\s+</g, "><").replace(/\s+/g, " "), stylesheets };
  }

  // Every element holding sections, keyed by its place in the page's frame, so the old
  // and the new page's containers pair up. Feeds that may be empty say so with data-feed.
  function containers(doc) {
    const found = new Set(doc.querySelectorAll("[data-feed]"));
    doc.querySelectorAll("section[data-diff-id]").forEach((section) => found.add(section.parentElement));
    const result = new Map();
    for (const element of found) result.set(placeOf(element), element);
    return result;
  }

  function placeOf(element) {
    const steps = [];
    for (let node = element; node && node.parentElement; node = node.parentElement) {
      const siblings = [...node.parentElement.children].filter((child) => !isSection(child) && !isOurs(child));
      steps.push(`${node.tagName}:${siblings.indexOf(node)}`);
    }
    return steps.reverse().join("/");
  }

  const isSection = (node) => node.matches && node.matches("section[data-diff-id]");
  const isOurs = (node) => node.matches && node.matches("script[data-marsgen-live], #marsgen-overlay, #marsgen-notice");

  function diffSections(container, target) {
    const oldSections = [...container.children].filter((node) => isSection(node) && !node.dataset.marsgenLeaving);
    const newSections = [...target.children].filter(isSection);
    const oldById = new Map(oldSections.map((section) => [section.dataset.diffId, section]));
    const newIds = new Set(newSections.map((section) => section.dataset.diffId));
    const unchangedOrder = oldSections.length === newSections.length
      && oldSections.every((section, index) => section.dataset.diffId === newSections[index].dataset.diffId
        && sameSection(section, newSections[index]));
    if (unchangedOrder) return;

    // First: where every section is now.
    const first = new Map(oldSections.map((section) => [section, section.getBoundingClientRect()]));
    const anchor = document.createComment("marsgen");
    container.insertBefore(anchor, oldSections[0] || null);

    // Deleted: lifted out of the flow where they stand, then faded out.
    const containerBox = container.getBoundingClientRect();
    for (const section of oldSections) {
      if (newIds.has(section.dataset.diffId)) continue;
      const box = first.get(section);
      if (getComputedStyle(container).position === "static") {
        container.style.position = "relative";
        container.dataset.marsgenPositioned = "true";
      }
      section.dataset.marsgenLeaving = "true";
      Object.assign(section.style, {
        position: "absolute", left: `${box.left - containerBox.left}px`, top: `${box.top - containerBox.top}px`,
        width: `${box.width}px`, margin: "0", pointerEvents: "none",
      });
      container.appendChild(section);
      fadeOut(section);
    }

    // The new order, reusing unchanged sections and replacing updated ones in place.
    const order = [];
    const inserted = new Set();
    const updated = new Set();
    for (const next of newSections) {
      const old = oldById.get(next.dataset.diffId);
      if (old && sameSection(old, next)) {
        order.push(old);
        continue;
      }
      const section = document.importNode(next, true);
      if (old) {
        keepOpenDetails(old, section);
        first.set(section, first.get(old));
        old.remove();
        updated.add(section);
      } else {
        inserted.add(section);
      }
      order.push(section);
    }
    let cursor = anchor;
    for (const section of order) {
      if (cursor.nextSibling !== section) cursor.after(section);
      cursor = section;
    }
    anchor.remove();

    // Last, invert, play.
    if (reduceMotion) return;
    for (const section of order) {
      if (inserted.has(section)) {
        section.animate([{ opacity: 0, transform: "translateY(-12px)" }, { opacity: 1, transform: "none" }],
          { duration: 320, easing: "ease-out" });
        continue;
      }
      const from = first.get(section);
      const to = section.getBoundingClientRect();
      const dy = from ? from.top - to.top : 0;
      if (Math.abs(dy) > 0.5) {
        section.animate([{ transform: `translateY(${dy}px)` }, { transform: "none" }], { duration: 320, easing: "ease-in-out" });
      }
      if (updated.has(section)) {
        section.animate([{ boxShadow: "0 0 0 2px rgba(255, 140, 60, 0.7)" }, { boxShadow: "0 0 0 2px rgba(255, 140, 60, 0)" }],
          { duration: 900, easing: "ease-out" });
      }
    }
  }

  // Whether a section shows the same as before. Its hash is its object's: a cell template
  // or the site's words changed shows the same objects otherwise, so the markup decides
  // too, with every <details> closed as the reader may have opened some.
  function sameSection(old, next) {
    return old.dataset.diffHash === next.dataset.diffHash && markup(old) === markup(next);
  }

  function markup(section) {
    const copy = section.cloneNode(true);
    copy.querySelectorAll("details").forEach((details) => details.removeAttribute("open"));
    return copy.outerHTML;
  }

  function fadeOut(section) {
    const container = section.parentElement;
    const done = () => {
      section.remove();
      if (container.dataset.marsgenPositioned && !container.querySelector("[data-marsgen-leaving]")) {
        delete container.dataset.marsgenPositioned;
        container.style.removeProperty("position");
        if (container.getAttribute("style") === "") container.removeAttribute("style");
      }
    };
    if (reduceMotion) return done();
    const animation = section.animate([{ opacity: 1 }, { opacity: 0, transform: "scale(0.98)" }],
      { duration: 260, easing: "ease-in", fill: "forwards" });
    animation.onfinish = done;
    animation.oncancel = done;
  }

  // An updated weather section stays expanded if the reader had expanded it.
  function keepOpenDetails(old, fresh) {
    const before = old.querySelectorAll("details");
    const after = fresh.querySelectorAll("details");
    before.forEach((details, index) => {
      if (after[index]) after[index].open = details.open;
    });
  }

  // MARK: Reloads, deleted pages, errors

  function reload() {
    state.reloads += 1;
    try { sessionStorage.setItem(SCROLL_KEY, JSON.stringify({ path: location.pathname, y: window.scrollY })); } catch (_) {}
    location.reload();
  }

  function restoreScroll() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(SCROLL_KEY) || "null");
      sessionStorage.removeItem(SCROLL_KEY);
      if (saved && saved.path === location.pathname) window.scrollTo(0, saved.y);
    } catch (_) {}
  }

  function pageDeleted() {
    if (document.getElementById("marsgen-notice")) return;
    const notice = document.createElement("div");
    notice.id = "marsgen-notice";
    notice.setAttribute("role", "status");
    notice.textContent = "This page was removed. Going to the front page\u2026";
    Object.assign(notice.style, {
      position: "fixed", top: "1rem", left: "50%", transform: "translateX(-50%)", zIndex: "2147483647",
      padding: "0.75rem 1.25rem", borderRadius: "8px", background: "#1c2530", color: "#f4efe9",
      font: "15px/1.4 system-ui, sans-serif", boxShadow: "0 4px 24px rgba(0, 0, 0, 0.5)",
    });
    document.body.appendChild(notice);
    setTimeout(() => { location.href = home; }, 1500);
  }

  function showFailure(failure) {
    let overlay = document.getElementById("marsgen-overlay");
    if (!failure) {
      if (overlay) overlay.remove();
      return;
    }
    if (!overlay) {
      overlay = document.createElement("div");
      overlay.id = "marsgen-overlay";
      overlay.setAttribute("role", "alert");
      Object.assign(overlay.style, {
        position: "fixed", left: "0", right: "0", bottom: "0", zIndex: "2147483647", maxHeight: "50vh", overflow: "auto",
        padding: "1rem 1.25rem", background: "rgba(40, 8, 8, 0.96)", color: "#ffd9d0", borderTop: "3px solid #ff5a3c",
        font: "14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", whiteSpace: "pre-wrap",
      });
      document.body.appendChild(overlay);
    }
    const lines = ["marsgen: the build failed; showing the last good site.", ""];
    lines.push(`${failure.location ? failure.location + ": " : ""}error: ${failure.message}`);
    if (failure.hint) lines.push(`  hint: ${failure.hint}`);
    overlay.textContent = lines.join("\n");
  }

  restoreScroll();
  connect();
})();
