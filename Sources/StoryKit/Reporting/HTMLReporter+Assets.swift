extension HTMLReporter {
    /// The page's style sheet.
    static let css = """
        :root{--pass:#1a7f37;--fail:#cf222e;--undef:#9a6700;--skip:#57606a;--ink:#1f2328;--muted:#656d76;--line:#d8dee4;--bg:#f6f8fa}
        *{box-sizing:border-box}
        body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:var(--ink);background:var(--bg)}
        header{background:#fff;border-bottom:1px solid var(--line);padding:28px 40px 20px}
        h1{margin:0;font-size:15px;font-weight:600;letter-spacing:.06em;text-transform:uppercase;color:var(--muted)}
        .verdict{margin:4px 0 16px;font-size:30px;font-weight:700;line-height:1.2}
        .verdict.good{color:var(--pass)}.verdict.bad{color:var(--fail)}
        .cards{display:flex;flex-wrap:wrap;gap:10px;margin-bottom:14px}
        .card{font:inherit;text-align:left;min-width:120px;padding:8px 14px;border:1px solid var(--line);border-radius:10px;background:#fff;color:var(--muted);border-top:4px solid var(--line)}
        .card b{display:block;font-size:26px;line-height:1.1;color:var(--ink)}
        .card.passed{border-top-color:var(--pass)}.card.failed{border-top-color:var(--fail)}
        .card.undefined,.card.pending{border-top-color:var(--undef)}.card.skipped{border-top-color:var(--skip)}
        .js .card{cursor:pointer}.js .card:hover{background:#f3f4f6}.card.on{box-shadow:0 0 0 2px var(--ink) inset}
        .bar{display:flex;height:10px;border-radius:5px;overflow:hidden;background:var(--line)}
        .bar span{display:block}.bar .passed{background:var(--pass)}.bar .failed{background:var(--fail)}
        .bar .undefined,.bar .pending{background:#d4a72c}.bar .skipped{background:#8c959f}
        .counts{margin:8px 0 0;color:var(--muted);font-size:14px}
        .tools{position:sticky;top:0;z-index:1;display:flex;flex-wrap:wrap;align-items:center;gap:8px;padding:10px 40px;background:rgba(246,248,250,.95);border-bottom:1px solid var(--line)}
        .tools[hidden]{display:none}
        .tools input[type=search]{font:inherit;flex:1;max-width:360px;padding:5px 10px;border:1px solid var(--line);border-radius:8px}
        .tools button{font:inherit;font-size:14px;border:1px solid var(--line);background:#fff;border-radius:8px;padding:4px 10px;cursor:pointer}
        .tools label{font-size:14px;color:var(--muted)}.shown{font-size:14px;color:var(--muted);margin-left:auto}
        main{max-width:1100px;padding:8px 40px 40px}
        h2{font-size:20px;margin:28px 0 8px;display:flex;flex-wrap:wrap;align-items:baseline;gap:12px}
        h2 small{color:var(--muted);font-weight:normal;font-size:14px}
        .file>.bar{height:6px;margin-bottom:10px;max-width:320px}
        .attention{background:#fff;border:1px solid #ffcecb;border-radius:12px;padding:4px 20px 12px;margin-top:20px}
        .attention h2{color:var(--fail);margin-top:12px}.attention ul{margin:0;padding:0;list-style:none}
        .attention li{padding:6px 0;border-top:1px solid #f0f0f0}.attention li:first-child{border-top:0}
        .attention a{color:var(--ink);font-weight:600;text-decoration:none}.attention a:hover{text-decoration:underline}
        .attention .why{display:block;color:var(--muted);font-size:14px;margin-left:108px}
        .attention .more{margin:6px 0 0;color:var(--muted);font-size:14px}
        .attention button,.more-stories{font:inherit;font-size:14px;border:1px solid var(--line);background:#fff;border-radius:8px;padding:4px 10px;cursor:pointer}
        .more-stories{display:block;margin:16px auto}
        details.story{scroll-margin-top:64px;background:#fff;border:1px solid var(--line);border-left:6px solid var(--line);border-radius:10px;margin:10px 0;padding:10px 16px 10px 30px}
        details.passed{border-left-color:var(--pass)}details.failed{border-left-color:var(--fail)}
        details.undefined,details.pending{border-left-color:#d4a72c}details.skipped{border-left-color:#8c959f}
        summary{cursor:pointer;list-style-position:outside}
        .title{font-weight:600;font-size:17px}
        .status{display:inline-block;width:100px;margin-right:8px;font-size:12px;text-transform:uppercase;letter-spacing:.05em;font-weight:700}
        .passed .status{color:var(--pass)}.failed .status{color:var(--fail)}.undefined .status,.pending .status{color:var(--undef)}.skipped .status{color:var(--skip)}
        .where{display:block;color:var(--muted);font-weight:normal;font-size:13px;margin-left:108px}
        .tag{background:#ddf4ff;color:#0969da;border-radius:10px;padding:1px 8px;font-size:12px;font-weight:normal;white-space:nowrap}
        ol.steps{list-style:none;padding:0;margin:10px 0 2px 108px}
        li.step{position:relative;padding:3px 0 3px 30px}
        .icon{position:absolute;left:0;top:4px;width:20px;height:20px;border-radius:50%;font-size:12px;font-weight:700;line-height:20px;text-align:center;color:#fff}
        li.passed .icon{background:var(--pass)}li.failed .icon,li.ambiguous .icon{background:var(--fail)}
        li.undefined .icon,li.pending .icon{background:#d4a72c}li.skipped .icon{background:#afb8c1}
        li.skipped .text{color:var(--muted)}
        .keyword{font-weight:700;color:#0550ae}li.skipped .keyword{color:var(--muted)}
        li.step .where{display:inline;margin-left:10px}
        .match,.note{font-size:13px;color:var(--muted)}.match code{font-size:12px}
        .error{margin:6px 0;border-left:3px solid var(--fail);background:#fff5f5;border-radius:0 6px 6px 0;padding:6px 12px}
        pre{white-space:pre-wrap;word-break:break-word;margin:0;font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
        pre.message{color:#82071e;font-size:14px}pre.places{color:var(--muted);margin-top:4px}
        pre.snippet{background:#fff8e1;border:1px dashed #d4a72c;border-radius:6px;padding:6px 10px;margin-top:4px}
        details.problems{margin-top:32px;color:var(--muted)}details.problems summary{font-weight:600;list-style-position:inside}
        .problems ul{padding:0}.problems li{list-style:none}.problems pre{background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px}
        .badge{background:#fff8c5;color:#7d4e00;border:1px solid #d4a72c;border-radius:10px;padding:1px 8px;font-size:12px;font-weight:600;white-space:nowrap}
        .hookplace{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--muted)}
        .from{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);border:1px solid var(--line);border-radius:8px;padding:0 6px}
        table.datatable{border-collapse:collapse;margin:4px 0;font-size:14px}table.datatable td{border:1px solid var(--line);padding:2px 10px;background:#fff}
        table.datatable tr:first-child td{background:var(--bg);font-weight:600}
        .docstring{margin:4px 0;border:1px solid var(--line);border-radius:6px;background:#fff;padding:6px 10px}.mediatype{float:right;font-size:11px;color:var(--muted)}
        .attachment{margin:4px 0;font-size:13px}.attachment img{max-width:100%;max-height:480px;border:1px solid var(--line);border-radius:6px}
        .attachment figcaption{color:var(--muted)}.attachment pre{background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px 10px}
        pre.log{color:var(--muted);margin:2px 0}
        .description{white-space:pre-wrap;color:var(--muted);margin:0 0 8px}.rule{margin:14px 0 4px;font-size:17px}
        details.attempts{margin:6px 0 0 108px;font-size:14px;color:var(--muted)}.attempt{margin:4px 0}
        footer{max-width:1100px;padding:0 40px 32px;color:var(--muted);font-size:13px}
        .js .tech{display:none!important}.js.technical .tech{display:revert!important}
        .hidden{display:none!important}
        @media (max-width:700px){header,main,.tools,footer{padding-left:16px;padding-right:16px}.where,.attention .why{margin-left:0}ol.steps{margin-left:0}}
        @media print{.tools{display:none}header{padding:0 0 12px}details.story{break-inside:avoid}}
        """

    /// Builds the story list from the page's data (`#storyrun-data`,
    /// written by ``story(_:rule:info:into:)``): a chunk of stories at a time
    /// as the reader scrolls, a story's steps when it is opened; and the
    /// filters, search, expand/collapse and technical details. Every string
    /// of the data becomes text (`textContent`), never markup.
    static let script = #"""
        (function () {
        'use strict';
        var CHUNK = 100, ORDER = ['passed', 'failed', 'undefined', 'pending', 'skipped'];
        var ICONS = {passed: '✓', failed: '✗', undefined: '?', skipped: '–', ambiguous: '!', pending: '…'};
        var COLOURS = ['#24292f', '#cf222e', '#1a7f37', '#9a6700', '#0969da', '#8250df', '#1b7c83', '#6e7781'];
        var root = document.documentElement, nav = document.querySelector('.tools'), list = document.querySelector('.stories');
        var search = nav.querySelector('input[type=search]'), shown = nav.querySelector('.shown');
        var cards = [].slice.call(document.querySelectorAll('.card'));
        var data = JSON.parse(document.getElementById('storyrun-data').textContent);
        var all = [], byId = {}, matching, rendered = 0, lastFile = null, filter = 'all', query = '';
        root.classList.add('js');
        nav.hidden = false;
        data.files.forEach(function (file, f) {
          file.counts = {};
          file.s.forEach(function (s, i) {
            s.file = file;
            s.id = 's' + (f + 1) + '-' + (i + 1);
            file.counts[s.st] = (file.counts[s.st] || 0) + 1;
            byId[s.id] = s;
            all.push(s);
          });
        });
        matching = all;

        function el(tag, cls, text) {
          var e = document.createElement(tag);
          if (cls) { e.className = cls; }
          if (text != null) { e.textContent = text; }
          return e;
        }
        function add(parent, tag, cls, text) { return parent.appendChild(el(tag, cls, text)); }
        function plain(text) { return text.replace(/\x1b\[[0-9;]*[A-Za-z]|\x1b/g, ''); }

        // Text with ANSI colour codes (SGR) as coloured spans; other escape sequences dropped.
        function ansi(parent, text) {
          var parts = text.split(/\x1b\[([0-9;]*)([A-Za-z])/), colour = null, bold = false;
          for (var i = 0; i < parts.length; i += 3) {
            var piece = parts[i].replace(/\x1b/g, '');
            if (piece && (colour || bold)) {
              var span = add(parent, 'span', null, piece);
              span.style.color = colour || '';
              span.style.fontWeight = bold ? 700 : '';
            } else if (piece) { parent.append(piece); }
            if (parts[i + 2] !== 'm') { continue; }
            (parts[i + 1] || '0').split(';').forEach(function (code) {
              code = +code;
              if (code === 0) { colour = null; bold = false; }
              else if (code === 1) { bold = true; }
              else if (code === 22) { bold = false; }
              else if (code === 39) { colour = null; }
              else if (code >= 30 && code <= 37) { colour = COLOURS[code - 30]; }
              else if (code >= 90 && code <= 97) { colour = COLOURS[code - 90]; }
            });
          }
          return parent;
        }

        function bar(counts, total, label) {
          var b = el('div', 'bar');
          b.setAttribute('role', 'img');
          b.setAttribute('aria-label', label);
          ORDER.forEach(function (status) {
            if (!counts[status]) { return; }
            var part = add(b, 'span', status);
            part.style.width = (counts[status] * 100 / total).toFixed(2) + '%';
            part.title = counts[status] + ' ' + status;
          });
          return b;
        }

        function fileSection(file) {
          var section = el('section', 'file'), h2 = add(section, 'h2');
          var passed = file.counts.passed || 0, label = passed + ' of ' + file.s.length + ' pass';
          add(h2, 'span', 'name', file.n);
          add(add(h2, 'small', null, label + ' · '), 'span', 'path', file.p);
          section.appendChild(bar(file.counts, file.s.length, label));
          if (file.d) { add(section, 'p', 'description', file.d); }
          return section;
        }

        function storyElement(s) {
          var d = el('details', 'story ' + s.st), summary = add(d, 'summary');
          d.id = s.id;
          d.dataset.status = s.st;
          d.story = s;
          add(summary, 'span', 'status', s.st);
          add(summary, 'span', 'title', s.n);
          if (s.a) {
            summary.append(' ');
            add(summary, 'span', s.fl ? 'badge flaky' : 'badge', s.fl ? 'flaky · passed on attempt ' + s.a : s.a + ' attempts').title = s.an;
          }
          (s.t || []).forEach(function (tag) { summary.append(' '); add(summary, 'span', 'tag', tag); });
          var where = add(summary, 'span', 'where', s.c[0] + '/' + s.c[1] + ' steps · ' + s.ms);
          add(where, 'span', 'tech', ' · ' + s.file.p + ':' + s.l);
          if (s.st !== 'passed' || s.a) { openStory(d); }
          return d;
        }

        function openStory(d) {
          if (!d.built) { storyBody(d); }
          d.open = true;
        }

        function storyBody(d) {
          var s = d.story;
          d.built = true;
          if (s.d) { add(d, 'p', 'description', s.d); }
          d.appendChild(steps(s.x, s.st));
          if (s.e) {
            var attempts = add(d, 'details', 'attempts');
            add(attempts, 'summary', null, s.e.length + (s.e.length === 1 ? ' earlier attempt failed' : ' earlier attempts failed'));
            s.e.forEach(function (attempt, i) {
              add(attempts, 'p', 'attempt', 'Attempt ' + (i + 1) + ': ' + attempt[0]);
              attempts.appendChild(steps(attempt[1], attempt[0]));
            });
          }
          if (s.fx) { add(add(d, 'div', 'error'), 'pre', 'message', s.fx); }
        }

        function skipReason(testSteps, status) {
          if (status === 'undefined') { return 'Skipped: a step of this story is not written yet.'; }
          if (status === 'pending') { return 'Skipped: an earlier step is pending.'; }
          if (status !== 'skipped') { return 'Skipped: an earlier step or hook did not pass.'; }
          return testSteps.some(function (t) { return t.s === 'skipped' && t.nt; })
            ? 'Skipped: the story was skipped (the reason is above).' : 'Skipped: a dry run matches steps without running them.';
        }

        function steps(testSteps, status) {
          var ol = el('ol', 'steps'), skip = skipReason(testSteps, status);
          testSteps.forEach(function (t) { ol.appendChild(t.h ? hook(t) : step(t, skip)); });
          return ol;
        }

        function icon(li, status) {
          var i = add(li, 'span', 'icon', ICONS[status]);
          i.title = status;
          i.setAttribute('aria-label', status);
        }

        function step(t, skip) {
          var li = el('li', 'step ' + t.s + (t.bg ? ' background' : '')), text;
          icon(li, t.s);
          text = add(li, 'span', 'text');
          add(text, 'span', 'keyword', t.k);
          text.append(' ' + t.t);
          if (t.bg) {
            li.append(' ');
            add(li, 'span', 'from', 'background').title = 'a step of the Background, run before each story of its feature or rule';
          }
          add(li, 'span', 'where tech', 'line ' + t.l + ' · ' + t.ms);
          if (t.tb) {
            var table = add(li, 'table', 'datatable');
            t.tb.forEach(function (row) {
              var tr = add(table, 'tr');
              row.forEach(function (cell) { add(tr, 'td', null, cell); });
            });
          }
          if (t.doc) {
            var doc = add(li, 'div', 'docstring');
            if (t.doc[1] != null) { add(doc, 'span', 'mediatype', t.doc[1]); }
            add(doc, 'pre', null, t.doc[0]);
          }
          if (t.m) {
            var match = add(li, 'div', 'match tech', 'matched ');
            add(match, 'code', null, t.m[0]);
            match.append(' at ' + t.m[1]);
          }
          problem(li, t);
          if (t.s === 'undefined') {
            add(li, 'div', 'note', 'Not written yet: no step definition matches this step.');
            add(li, 'pre', 'snippet tech', t.sn);
          } else if (t.s === 'pending' && !t.nt) {
            add(li, 'div', 'note', 'Pending: the step is not written yet.');
          } else if (t.s === 'skipped' && !t.nt && !t.err) {
            add(li, 'div', 'note', skip);
          }
          attachments(li, t.at);
          return li;
        }

        function hook(t) {
          var li = el('li', 'step hook ' + t.s), text;
          icon(li, t.s);
          text = add(li, 'span', 'text');
          add(text, 'span', 'keyword', t.h + ' hook');
          text.append(' ');
          add(text, 'span', 'hookplace', t.p);
          add(li, 'span', 'where tech', t.ms);
          problem(li, t);
          attachments(li, t.at);
          return li;
        }

        // A failure's message and places, or the reason given to pending() or skip().
        function problem(li, t) {
          if (t.nt) {
            var note = add(li, 'div', 'note', (t.s === 'pending' ? 'Pending: ' : 'Skipped: ') + t.nt[0]);
            if (t.nt[1]) { add(note, 'span', 'tech', ' (' + t.nt[1] + ')'); }
          }
          if (t.err) {
            var error = add(li, 'div', 'error');
            ansi(add(error, 'pre', 'message'), t.err[0]);
            if (t.err[1]) { add(error, 'pre', t.h ? 'places' : 'places tech', t.err[1]); }
          }
        }

        function attachments(li, list) {
          (list || []).forEach(function (a) {
            var box;
            if (a.k === 'log') {
              ansi(add(li, 'pre', 'log'), a.b);
            } else if (a.k === 'img') {
              box = add(li, 'figure', 'attachment');
              var img = add(box, 'img');
              img.src = a.b;
              img.alt = a.n;
              add(box, 'figcaption', null, a.l);
            } else if (a.k === 'txt') {
              box = add(li, 'details', 'attachment');
              add(box, 'summary', null, a.l);
              add(box, 'pre', null, a.b);
            } else if (a.k === 'bin') {
              box = add(li, 'div', 'attachment');
              var link = add(box, 'a', null, a.l);
              link.href = a.b;
              link.download = a.n;
              box.append(', ' + a.z + ' bytes');
            } else {
              add(li, 'div', 'attachment', a.l);
            }
            if (a.nt) { add(li, 'div', 'note', a.nt); }
          });
        }

        // Stories are added a chunk at a time, when "Show more" comes near the screen.
        var more = el('button', 'more-stories');
        more.type = 'button';
        more.addEventListener('click', function () { renderMore(0); });
        var observer = window.IntersectionObserver && new IntersectionObserver(function (entries) {
          if (entries[0].isIntersecting) { renderMore(0); }
        }, {rootMargin: '600px'});

        function renderMore(upTo) {
          var end = Math.min(matching.length, Math.max(rendered + CHUNK, upTo)), section;
          if (observer) { observer.unobserve(more); }
          more.remove();
          section = list.lastElementChild;
          for (; rendered < end; rendered++) {
            var s = matching[rendered];
            if (s.file !== lastFile) { lastFile = s.file; section = list.appendChild(fileSection(s.file)); }
            if (s.r) {
              add(section, 'h3', 'rule', s.r[0] + ': ' + s.r[1]);
              if (s.r[2]) { add(section, 'p', 'description', s.r[2]); }
            }
            section.appendChild(storyElement(s));
          }
          if (rendered < matching.length) {
            more.textContent = 'Show more (' + (matching.length - rendered) + ' more stories)';
            list.appendChild(more);
            if (observer) { observer.observe(more); }
          }
        }

        function searchText(s) {
          if (s.q == null) {
            s.q = [s.n, s.file.n, s.file.p].concat(s.t || [], s.x.map(function (t) {
              return (t.k || t.h) + ' ' + (t.t || '') + (t.err ? ' ' + t.err[0] : '');
            })).join('\n').toLowerCase();
          }
          return s.q;
        }

        function apply() {
          matching = all.filter(function (s) {
            return (filter === 'all' || s.st === filter) && (!query || searchText(s).indexOf(query) >= 0);
          });
          list.textContent = '';
          rendered = 0;
          lastFile = null;
          renderMore(0);
          document.querySelector('.empty').classList.toggle('hidden', matching.length > 0);
          shown.textContent = matching.length === all.length ? '' : matching.length + ' of ' + all.length + ' stories shown';
        }

        function setFilter(card) {
          filter = card.dataset.filter;
          cards.forEach(function (c) { c.classList.toggle('on', c === card); });
        }

        // A link to a story (from "Needs attention"): shown, opened and scrolled to.
        function reveal() {
          var s = byId[location.hash.slice(1)], at;
          if (!s) { return; }
          if (matching.indexOf(s) < 0) { setFilter(cards[0]); query = search.value = ''; apply(); }
          at = matching.indexOf(s);
          if (at >= rendered) { renderMore(at + 1); }
          var d = document.getElementById(s.id);
          openStory(d);
          d.scrollIntoView();
        }

        function attentionItem(s) {
          var li = el('li', s.st), link = add(li, 'a');
          link.href = '#' + s.id;
          add(link, 'span', 'status', s.st);
          link.append(s.n);
          li.append(' ');
          add(li, 'span', 'why', plain(s.w));
          return li;
        }

        var showAll = document.querySelector('[data-action=attention]');
        if (showAll) {
          showAll.hidden = false;
          showAll.addEventListener('click', function () {
            var ul = document.querySelector('.attention ul');
            all.filter(function (s) { return s.w; }).slice(+showAll.dataset.shown).forEach(function (s) { ul.appendChild(attentionItem(s)); });
            showAll.parentNode.remove();
          });
        }
        list.addEventListener('toggle', function (e) {
          if (e.target.story && e.target.open && !e.target.built) { storyBody(e.target); }
        }, true);
        cards.forEach(function (card) { card.addEventListener('click', function () { setFilter(card); apply(); }); });
        var typing;
        search.addEventListener('input', function () {
          clearTimeout(typing);
          typing = setTimeout(function () { query = search.value.toLowerCase(); apply(); }, 150);
        });
        nav.querySelector('[data-action=expand]').addEventListener('click', function () {
          list.querySelectorAll('details.story').forEach(openStory);
        });
        nav.querySelector('[data-action=collapse]').addEventListener('click', function () {
          list.querySelectorAll('details.story').forEach(function (d) { d.open = false; });
        });
        nav.querySelector('[data-action=technical]').addEventListener('change', function (e) {
          root.classList.toggle('technical', e.target.checked);
        });
        window.addEventListener('beforeprint', function () {
          renderMore(matching.length);
          list.querySelectorAll('details.story').forEach(openStory);
        });
        window.addEventListener('hashchange', reveal);
        renderMore(0);
        reveal();
        })();
        """#
}
