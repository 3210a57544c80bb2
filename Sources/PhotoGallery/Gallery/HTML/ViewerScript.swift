/// `viewer.js`, written once at the gallery's root and loaded (deferred) by every page.
///
/// One static file rather than inline: the browser caches it across the gallery's pages instead of
/// reading it again in each of a million pages, and a page holds no inline script at all, so nothing
/// in a page can ever run but this file. It only adds to links that work on their own: Left/Right
/// follow `rel="prev"`/`rel="next"` (photo to photo, or index page to index page), Escape or Up follow
/// `rel="up"` (a photo page back to the index page that shows it), a horizontal swipe on a touch screen
/// does Left/Right, and once a photo page has loaded the next photo's image is fetched (with the same
/// `<source>`s, `srcset` and `sizes`, so the browser picks the same file the next page will show). It reads no page
/// text and writes none, so untrusted text cannot reach it. No framework, no network resource.
enum ViewerScript {
    /// Where it is written, relative to the gallery root.
    static let path = "viewer.js"

    static let source = #"""
    // fetch-gallery viewer: keys, swipes and preloading on top of plain links. Every page works without it.
    (function () {
      "use strict";
      function link(rel) { return document.querySelector('a[rel~="' + rel + '"][href]'); }
      function follow(rel) {
        var a = link(rel);
        if (!a) return false;
        window.location.href = a.href;
        return true;
      }
      var photoPage = document.querySelector("figure.photo") !== null;
      document.addEventListener("keydown", function (event) {
        if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
        var target = event.target;
        if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName))) return;
        var rel = null;
        if (event.key === "ArrowLeft") rel = "prev";
        else if (event.key === "ArrowRight") rel = "next";
        else if (photoPage && (event.key === "Escape" || event.key === "ArrowUp")) rel = "up";
        if (rel && follow(rel)) event.preventDefault();
      });
      if (!photoPage) return;
      var hint = document.querySelector(".keys");
      if (hint && window.matchMedia && window.matchMedia("(hover: hover)").matches) hint.hidden = false;
      var startX = null, startY = 0;
      document.addEventListener("touchstart", function (event) {
        if (event.touches.length !== 1) { startX = null; return; }
        startX = event.touches[0].clientX;
        startY = event.touches[0].clientY;
      }, { passive: true });
      document.addEventListener("touchend", function (event) {
        if (startX === null || event.changedTouches.length !== 1) return;
        var dx = event.changedTouches[0].clientX - startX, dy = event.changedTouches[0].clientY - startY;
        startX = null;
        if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) follow(dx < 0 ? "next" : "prev");
      }, { passive: true });
      window.addEventListener("load", function () {
        var next = link("next");
        if (!next || !next.dataset.src) return;
        // As the next page shows it: a <picture> whose AVIF/WebP sources come first (the browser takes
        // the first type it shows), detached from the page; an <img> whose parent is a <picture> loads
        // by the same choice whether or not it is in a document.
        var picture = document.createElement("picture");
        ["avif", "webp"].forEach(function (format) {
          var srcset = next.getAttribute("data-srcset-" + format);
          if (!srcset) return;
          var source = document.createElement("source");
          source.type = "image/" + format;
          if (next.dataset.sizes) source.sizes = next.dataset.sizes;
          source.srcset = srcset;
          picture.appendChild(source);
        });
        var image = document.createElement("img");
        picture.appendChild(image);
        if (next.dataset.srcset) {
          image.sizes = next.dataset.sizes || "100vw";
          image.srcset = next.dataset.srcset;
        }
        image.src = next.dataset.src;
      });
    })();

    """#
}
