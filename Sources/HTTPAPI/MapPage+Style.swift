extension MapPage {
    /// `/map.css`: a plain layout that works from a phone (390 px) up; `.large` (the "Large
    /// text" switch) scales every text and marker up.
    static let style = #"""
        :root { --accent: #1769aa; --here: #c0392b; --text: #1b1b1b; --muted: #555; --line: #ccc; }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        html { font-size: 100%; }
        html.large { font-size: 137.5%; }
        body { margin: 0; font-family: system-ui, sans-serif; color: var(--text); background: #fff;
          line-height: 1.4; }
        .skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem; z-index: 2000; }
        .skip:focus { left: .5rem; }
        header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .5rem 1rem;
          border-bottom: 1px solid var(--line); }
        h1 { font-size: 1.3rem; margin: 0; }
        h2 { font-size: 1.1rem; margin: .5rem 0; }
        nav { display: flex; gap: .25rem; }
        main { padding: 0 1rem 1rem; max-width: 70rem; margin: 0 auto; }
        button, input { font: inherit; }
        button { padding: .35rem .8rem; border: 1px solid var(--accent); border-radius: .3rem; background: #fff;
          color: var(--accent); cursor: pointer; min-height: 2.2rem; }
        button[aria-pressed="true"], button[type="submit"] { background: var(--accent); color: #fff; }
        input:not([type="checkbox"]) { padding: .3rem; border: 1px solid #888; border-radius: .3rem; width: 9em;
          min-height: 2.2rem; }
        input[type="checkbox"] { width: 1.2em; height: 1.2em; vertical-align: middle; }
        :focus-visible { outline: 3px solid #f39c12; outline-offset: 2px; }
        form { display: flex; flex-wrap: wrap; align-items: flex-end; gap: .5rem 1rem; margin: .5rem 0; }
        label { display: inline-flex; flex-direction: column; gap: .15rem; }
        label.toggle { flex-direction: row; align-items: center; gap: .4rem; }
        #signed-in { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem 1.5rem; }
        #signed-in p, #signed-in form { margin: .25rem 0; }
        .note { color: var(--muted); font-size: .9rem; margin: 0; flex-basis: 100%; }
        .status { min-height: 1.4em; margin: .25rem 0; }
        .status.error { color: #a40000; }
        .stream { margin: .25rem 0; font-weight: 600; }
        .stream.lost { color: #a40000; }
        .stream.live { color: #1e7b34; }
        #map { height: 60vh; min-height: 18rem; border: 1px solid var(--line); background: #eef2f5; }
        @media (min-width: 64rem) {
          main { display: grid; grid-template-columns: minmax(0, 1fr) 24rem; gap: 0 1rem; max-width: 90rem; }
          main > section { grid-column: 1 / 3; }
          #map { height: calc(100vh - 13rem); }
          #lists { overflow: auto; max-height: calc(100vh - 13rem); }
          #lists h2 { margin-top: 0; }
        }
        table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
        th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
        td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
        th.name { font-weight: normal; overflow-wrap: anywhere; }
        tr.me td, tr.me th { font-weight: 600; }
        tr.selected td, tr.selected th { background: #fff6d5; }
        .empty { font-weight: 600; }
        .marker { display: flex; align-items: center; justify-content: center; width: 100%; height: 100%;
          border-radius: 50%; background: var(--accent); color: #fff; font: 700 .8rem/1 system-ui, sans-serif;
          border: 2px solid #fff; box-shadow: 0 0 0 1px #333; }
        .marker.beyond { background: #777; }
        .marker.me { background: var(--here); }
        .marker.here { background: var(--here); width: 60%; height: 60%; margin: 20%; }
        .leaflet-div-icon.place-icon { background: none; border: none; }
        html.large .marker { font-size: 1.1rem; }
        .attribution a { color: var(--accent); }
        @media (max-width: 40rem) {
          main { padding: 0 .5rem .5rem; }
          header { padding: .5rem; }
          #map { height: 50vh; }
          th, td { padding: .3rem .25rem; }
          input:not([type="checkbox"]) { width: 7.5em; }
        }

        """#
}
