// The site's one script: the search box. The index is a script of its own
// (assets/search-index.js) that sets window.CGP_SEARCH_INDEX, so search works
// from file:// as well as from a static host. No framework, nothing fetched.
(function () {
  "use strict";
  var input = document.getElementById("search");
  var list = document.getElementById("search-results");
  if (!input || !list) {
    return;
  }
  var root = document.body.getAttribute("data-root") || "";
  var LIMIT = 40;

  // Exact names first (all of them: a name several types share lists every
  // one), then names that start with the query, then names and labels that
  // contain it. Within a rank, types before members, then index order.
  var KIND_ORDER = { type: 0, variant: 0, member: 1, value: 2, rule: 3, heading: 4 };
  function rank(entry, query) {
    var name = entry[0].toLowerCase();
    if (name === query) {
      return 0;
    }
    if (name.indexOf(query) === 0) {
      return 1;
    }
    if (name.indexOf(query) >= 0) {
      return 2;
    }
    if (entry[1].toLowerCase().indexOf(query) >= 0) {
      return 3;
    }
    return -1;
  }

  function search(query) {
    var index = window.CGP_SEARCH_INDEX || [];
    var found = [];
    for (var i = 0; i < index.length; i++) {
      var r = rank(index[i], query);
      if (r >= 0) {
        found.push([r, KIND_ORDER[index[i][3]] || 0, i]);
      }
    }
    found.sort(function (a, b) {
      return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
    });
    var exact = found.filter(function (f) { return f[0] === 0; }).length;
    return found.slice(0, Math.max(LIMIT, exact)).map(function (f) {
      return index[f[2]];
    });
  }

  function show() {
    var query = input.value.trim().toLowerCase();
    list.textContent = "";
    if (query.length === 0) {
      return;
    }
    var results = search(query);
    if (results.length === 0) {
      var none = document.createElement("li");
      none.textContent = "Nothing found.";
      list.appendChild(none);
      return;
    }
    results.forEach(function (entry) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = root + entry[2];
      link.textContent = entry[1];
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = entry[3];
      link.appendChild(kind);
      item.appendChild(link);
      list.appendChild(item);
    });
  }

  input.addEventListener("input", show);
  input.addEventListener("keydown", function (event) {
    if (event.key === "Enter") {
      var first = list.querySelector("a");
      if (first) {
        window.location.href = first.href;
      }
    } else if (event.key === "Escape") {
      input.value = "";
      show();
    } else if (event.key === "ArrowDown") {
      var link = list.querySelector("a");
      if (link) {
        event.preventDefault();
        link.focus();
      }
    }
  });
  document.addEventListener("keydown", function (event) {
    var typing = /input|textarea|select/i.test(event.target.tagName);
    if (event.key === "/" && !typing) {
      event.preventDefault();
      input.focus();
    }
  });
})();
