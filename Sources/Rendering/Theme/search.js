// marsgen's search page (search: true), written to theme/search.js.
// The search runs here, in the reader's browser, over the index marsgen wrote: every term
// typed must be in a text's title, author, tags or text; titles weigh most, then author and
// tags, and ties keep the feed's order (the latest on top).
(function () {
  "use strict";
  var root = document.querySelector("[data-search]");
  if (!root || !window.fetch) return;
  var input = root.querySelector(".search-input");
  var status = root.querySelector(".search-status");
  var list = root.querySelector(".search-results");
  var more = root.querySelector(".search-more");
  var forms = {};
  root.querySelectorAll(".search-forms").forEach(function (template) {
    template.content.querySelectorAll("[data-category]").forEach(function (form) {
      forms[form.getAttribute("data-category")] = form.textContent;
    });
  });
  var plural = window.Intl && Intl.PluralRules ? new Intl.PluralRules(root.getAttribute("data-language") || "en") : null;
  // Results are listed a hundred at a time: the button under the list adds the next.
  var batch = 100;
  var found = [], wanted = [];
  var solTitle = root.getAttribute("data-sol") || "Sol {sol}";
  var documents = null;
  var pending = null;

  // Lower case without accents, so that "Sol" finds "sol" and "eva" finds "ÉVA".
  function fold(text) {
    return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }
  // The folded text with, for each of its code units, where it came from in the text.
  function foldWithPlaces(text) {
    var folded = "", places = [];
    for (var index = 0; index < text.length; ) {
      var point = text.codePointAt(index);
      var size = point > 0xffff ? 2 : 1;
      var part = fold(String.fromCodePoint(point));
      for (var unit = 0; unit < part.length; unit++) places.push(index);
      folded += part;
      index += size;
    }
    places.push(text.length);
    return { text: folded, places: places };
  }
  function terms(query) {
    var seen = {};
    return fold(query).split(/\s+/).filter(function (term) {
      if (!term || seen[term]) return false;
      seen[term] = true;
      return true;
    });
  }
  function counted(count) {
    var form = forms[plural ? plural.select(count) : "other"] || forms.other || "{count}";
    return form.replace("{count}", count.toLocaleString(root.getAttribute("data-language") || undefined));
  }
  // Appends text[start..<end] to element, each term found in it marked.
  function appendMarked(element, text, wanted, start, end) {
    var folded = foldWithPlaces(text);
    var marks = [];
    wanted.forEach(function (term) {
      for (var at = folded.text.indexOf(term); at >= 0; at = folded.text.indexOf(term, at + term.length)) {
        var from = folded.places[at], to = folded.places[at + term.length];
        if (to > start && from < end) marks.push([Math.max(from, start), Math.min(to, end)]);
      }
    });
    marks.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
    var place = start;
    marks.forEach(function (mark) {
      if (mark[0] < place) return;
      element.append(text.slice(place, mark[0]));
      var marked = document.createElement("mark");
      marked.textContent = text.slice(mark[0], mark[1]);
      element.append(marked);
      place = mark[1];
    });
    element.append(text.slice(place, end));
  }
  // Up to 240 characters of the text around the first term found, cut between words.
  function snippet(text, wanted) {
    var paragraph = document.createElement("p");
    paragraph.className = "search-snippet";
    var folded = fold(text), first = -1;
    wanted.forEach(function (term) {
      var at = folded.indexOf(term);
      if (at >= 0 && (first < 0 || at < first)) first = at;
    });
    // Folding keeps most texts' length; where it does not, the place is near enough.
    var start = first < 0 ? 0 : Math.max(0, Math.min(first, text.length) - 80);
    if (start > 0) {
      var space = text.indexOf(" ", start);
      if (space >= 0 && space < start + 20) start = space + 1;
    }
    var end = Math.min(text.length, start + 240);
    if (end < text.length) {
      var last = text.lastIndexOf(" ", end);
      if (last > end - 30) end = last;
    }
    if (start > 0) paragraph.append("… ");
    appendMarked(paragraph, text, wanted, start, end);
    if (end < text.length) paragraph.append(" …");
    return paragraph;
  }
  function run() {
    var query = input.value.trim();
    var url = new URL(location.href);
    // As many results as were listed for this query before (`shown`, kept in the address
    // by "More results"), so that a reload, the index loaded again, or the back button from
    // a result lists them all again and the reader's place is still there.
    var shown = url.searchParams.get("q") === query ? parseInt(url.searchParams.get("shown"), 10) || 0 : 0;
    if (query) url.searchParams.set("q", query); else url.searchParams.delete("q");
    if (!shown) url.searchParams.delete("shown");
    history.replaceState(history.state, "", url);
    list.replaceChildren();
    found = [];
    if (more) more.hidden = true;
    if (!documents) return;
    // Which query the list shows, for a script of the site's own (and the tests) to wait on.
    list.setAttribute("data-query", query);
    wanted = terms(query);
    if (!wanted.length) {
      status.textContent = "";
      return;
    }
    documents.forEach(function (candidate, order) {
      var score = 0;
      for (var index = 0; index < wanted.length; index++) {
        var term = wanted[index];
        var inTitle = candidate.title.indexOf(term) >= 0, inMeta = candidate.meta.indexOf(term) >= 0;
        if (!inTitle && !inMeta && candidate.text.indexOf(term) < 0) return;
        score += (inTitle ? 8 : 0) + (inMeta ? 4 : 0) + 1;
      }
      found.push({ score: score, order: order });
    });
    found.sort(function (a, b) { return b.score - a.score || a.order - b.order; });
    status.textContent = found.length ? counted(found.length)
      : root.getAttribute("data-none").replace("{query}", query);
    showMore(Math.max(batch, shown));
  }
  // Lists the next `count` results (a batch unless said); the button stays while there are more.
  function showMore(count) {
    found.slice(list.children.length, list.children.length + (count || batch)).forEach(function (hit) {
      var entry = documents[hit.order].entry;
      var item = document.createElement("li");
      item.className = "search-result search-result-" + entry.kind;
      var link = document.createElement("a");
      link.className = "search-result-title";
      link.href = entry.url;
      appendMarked(link, entry.title, wanted, 0, entry.title.length);
      var meta = document.createElement("p");
      meta.className = "search-meta";
      // A page of its own has no sol; a weather report no author: its sky alone.
      if (entry.sol != null) meta.append(solTitle.replace("{sol}", entry.sol));
      var about = [entry.author].concat(entry.tags).filter(Boolean).join(" · ");
      if (about) {
        if (entry.sol != null) meta.append(" · ");
        appendMarked(meta, about, wanted, 0, about.length);
      }
      item.append(link);
      if (meta.childNodes.length) item.append(meta);
      item.append(snippet(entry.text, wanted));
      list.append(item);
    });
    if (more) more.hidden = list.children.length >= found.length;
    // How many are listed, when more than the first batch: for `run` to list as many again.
    var url = new URL(location.href);
    if (list.children.length > batch) url.searchParams.set("shown", list.children.length); else url.searchParams.delete("shown");
    history.replaceState(history.state, "", url);
  }
  if (more) {
    more.addEventListener("click", function () {
      var first = list.children.length;
      showMore();
      // A keyboard reader goes on from the first result added, not from the button's new place.
      var added = list.children[first];
      if (added) added.querySelector("a").focus();
    });
  }
  input.addEventListener("input", function () {
    clearTimeout(pending);
    pending = setTimeout(run, 120);
  });
  root.querySelector(".search-form").addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(pending);
    run();
  });
  input.value = new URLSearchParams(location.search).get("q") || "";
  input.focus();
  // The index names its parts, newest first; their documents are newest first too.
  var loads = 0;
  function loadIndex(options) {
    // Only the latest load's documents are kept, whichever finishes first.
    var load = ++loads;
    root.setAttribute("aria-busy", "true");
    var indexURL = root.getAttribute("data-index");
    function get(url) {
      return fetch(url, options).then(function (response) {
        if (!response.ok) throw new Error(url + ": " + response.status + " " + response.statusText);
        return response.json();
      });
    }
    return get(indexURL)
      .then(function (index) { return Promise.all(index.parts.map(get)); })
      .then(function (parts) {
        if (load !== loads) return;
        var all = [].concat.apply([], parts.map(function (part) { return part.documents; }));
        documents = all.map(function (entry) {
          return { entry: entry, title: fold(entry.title), meta: fold([entry.author].concat(entry.tags).join(" ")), text: fold(entry.text) };
        });
        root.removeAttribute("aria-busy");
        run();
      })
      .catch(function (error) {
        if (load !== loads) return;
        root.removeAttribute("aria-busy");
        status.textContent = root.getAttribute("data-unavailable");
        console.error("marsgen search:", error);
      });
  }
  loadIndex();
  // Under marsgen serve: a rebuild that wrote the index's files loads it again, so that a
  // text saved a moment ago is found.
  document.addEventListener("marsgen:built", function (event) {
    var folder = new URL(root.getAttribute("data-index"), location.href).pathname.replace(/[^/]*$/, "");
    var written = event.detail.written.concat(event.detail.deleted);
    if (written.some(function (path) { return path.indexOf(folder) === 0; })) loadIndex({ cache: "no-store" });
  });
})();
