/// The one style sheet, inlined in every page so the gallery opens straight from disk.
enum GalleryStyle {
    static let css = TrustedHTML("""
    :root{color-scheme:light dark;--gap:12px;--fg:#1d1d1f;--muted:#6e6e73;--card:#f5f5f7}
    @media (prefers-color-scheme:dark){:root{--fg:#f5f5f7;--muted:#a1a1a6;--card:#1c1c1e}}
    *{box-sizing:border-box}
    body{margin:0;padding:var(--gap);font:15px/1.4 system-ui,sans-serif;color:var(--fg)}
    h1{font-size:1.4rem;margin:0 0 var(--gap)}
    bdi{unicode-bidi:isolate}
    .grid{list-style:none;margin:0;padding:0;display:grid;gap:var(--gap);grid-template-columns:repeat(auto-fill,minmax(200px,1fr))}
    .card{background:var(--card);border-radius:8px;overflow:hidden;display:flex;flex-direction:column}
    .card a{color:inherit;text-decoration:none}
    .card img{display:block;width:100%;height:auto;aspect-ratio:4/3;object-fit:cover}
    figure{margin:0}
    figcaption{padding:6px 8px;overflow-wrap:anywhere}
    .name{display:block;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
    .meta{color:var(--muted);font-size:.85rem}
    .failed{padding:8px;color:#c0392b;overflow-wrap:anywhere}
    .photo img{max-width:100%;max-height:85vh;width:auto;height:auto}
    .description{white-space:pre-wrap;overflow-wrap:anywhere;max-width:70ch}
    .comments{padding-left:1.2em;max-width:70ch}
    .comments li{margin-bottom:.5em;white-space:pre-wrap;overflow-wrap:anywhere}
    .pages{margin:var(--gap) 0;display:flex;gap:1em;flex-wrap:wrap}
    """)
}
