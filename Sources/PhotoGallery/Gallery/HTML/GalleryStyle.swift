/// The one style sheet, inlined in every page so the gallery opens straight from disk.
///
/// The index grid has a fixed number of columns per width band, so ``IndexPage/thumbnailSizes`` can
/// tell the browser exactly how wide a card is and `srcset` picks the thumbnail that fits the screen.
enum GalleryStyle {
    static let css = TrustedHTML("""
    :root{color-scheme:light dark;--gap:12px;--fg:#1d1d1f;--muted:#5f5f64;--card:#f2f2f5;--bg:#fff;--accent:#0a58ca;--stage:#e9e9ee}
    @media (prefers-color-scheme:dark){:root{--fg:#f5f5f7;--muted:#a8a8ad;--card:#1c1c1e;--bg:#111;--accent:#7ab7ff;--stage:#000}}
    *{box-sizing:border-box}
    body{margin:0;padding:var(--gap);font:15px/1.4 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
    a{color:var(--accent)}
    a:focus-visible,button:focus-visible{outline:3px solid var(--accent);outline-offset:2px;border-radius:4px}
    h1{font-size:1.4rem;margin:0 0 var(--gap);overflow-wrap:anywhere}
    h2{font-size:1.1rem;margin:1.2em 0 .4em}
    bdi{unicode-bidi:isolate}
    .grid{list-style:none;margin:0;padding:0;display:grid;gap:var(--gap);grid-template-columns:repeat(2,minmax(0,1fr))}
    @media (min-width:600px){.grid{grid-template-columns:repeat(3,minmax(0,1fr))}}
    @media (min-width:900px){.grid{grid-template-columns:repeat(4,minmax(0,1fr))}}
    @media (min-width:1200px){.grid{grid-template-columns:repeat(5,minmax(0,1fr))}}
    @media (min-width:1600px){.grid{grid-template-columns:repeat(6,minmax(0,1fr))}}
    .card{background:var(--card);border-radius:8px;overflow:hidden;display:flex;flex-direction:column;min-width:0}
    .card a{color:inherit;text-decoration:none}
    .card img{display:block;width:100%;height:auto;aspect-ratio:4/3;object-fit:cover;background:var(--stage)}
    figure{margin:0}
    figcaption{padding:6px 8px;overflow-wrap:anywhere;min-width:0}
    .name{display:block;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
    .meta{color:var(--muted);font-size:.85rem}
    .failed{padding:8px;color:#c0392b;overflow-wrap:anywhere}
    .pages{margin:var(--gap) 0;display:flex;gap:.5em 1em;flex-wrap:wrap;align-items:center}
    .pages a,.pages span{padding:6px 10px;border-radius:6px;min-width:0;overflow-wrap:anywhere}
    .pages a{background:var(--card);text-decoration:none}
    .pages span{color:var(--muted)}
    @media (max-width:599px){.pages{gap:.4em .3em}.pages a,.pages span{padding:6px 7px}.pages .at{order:-1;flex-basis:100%;padding:0 2px}}
    .top{display:flex;gap:1em;flex-wrap:wrap;align-items:baseline;margin-bottom:var(--gap)}
    html:has(.photo){overscroll-behavior-x:none}
    .photo{background:var(--stage);border-radius:8px;display:flex;justify-content:center;align-items:center}
    .photo img{display:block;max-width:100%;max-height:calc(100vh - 140px);height:auto;object-fit:contain}
    .pager{display:grid;grid-template-columns:1fr 1fr;gap:var(--gap);margin:var(--gap) 0}
    .pager a{display:block;padding:10px 12px;background:var(--card);border-radius:8px;text-decoration:none;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
    .pager .next{text-align:end;grid-column:2}
    .info{max-width:70ch}
    .description{white-space:pre-wrap;overflow-wrap:anywhere}
    .links{padding-left:1.2em;overflow-wrap:anywhere}
    .exif{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.25em 1em;margin:0}
    .exif dt{color:var(--muted)}
    .exif dd{margin:0;overflow-wrap:anywhere}
    .comments{padding-left:1.2em}
    .comments li{margin-bottom:.5em;white-space:pre-wrap;overflow-wrap:anywhere}
    .keys{color:var(--muted);font-size:.85rem}
    """)
}
