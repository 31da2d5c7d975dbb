/// The JavaScript the steps run in the page (as `window.__storyrun`, made
/// once per document): finding elements the way users describe them,
/// Playwright's actionability checks, and descriptions for messages.
enum PageScript {
    /// An expression that calls `function` of the helper with a JSON argument.
    static func call(_ function: String, _ argument: String = "null") -> String {
        "(window.__storyrun || (window.__storyrun = (\(source))())).\(function)(\(argument))"
    }

    static let source = #"""
    function () {
      const norm = s => (typeof s === 'string' ? s : '').replace(/\s+/g, ' ').trim();
      // Attributes, not properties: a form's `title` or `id` may be its field of that name.
      const attr = (el, name) => el.getAttribute(name) || '';
      const clickable = 'a[href],button,input[type=submit],input[type=button],input[type=reset],input[type=image],summary,'
        + '[role=button],[role=link],[role=menuitem],[role=tab],[role=option],[role=switch]';
      const field = 'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]),'
        + 'textarea,select,[contenteditable=""],[contenteditable=true],[role=textbox],[role=combobox],[role=checkbox],'
        + '[role=radio],[role=switch],[role=spinbutton],[role=searchbox],[role=slider]';
      const tagRoles = { button: 'button', summary: 'button', textarea: 'textbox', option: 'option', h1: 'heading', h2: 'heading',
        h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading', ul: 'list', ol: 'list', li: 'listitem', nav: 'navigation',
        main: 'main', header: 'banner', footer: 'contentinfo', aside: 'complementary', form: 'form', table: 'table', tr: 'row',
        td: 'cell', th: 'columnheader', img: 'img', dialog: 'dialog', p: 'paragraph', article: 'article', fieldset: 'group',
        progress: 'progressbar', label: 'label' };
      const inputRoles = { button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio',
        range: 'slider', number: 'spinbutton', search: 'searchbox', hidden: 'none' };
      function role(el) {
        const given = el.getAttribute('role');
        if (given) return given.split(' ')[0];
        const tag = el.tagName.toLowerCase();
        if (tag === 'a') return el.hasAttribute('href') ? 'link' : 'generic';
        if (tag === 'input') return inputRoles[(el.type || 'text').toLowerCase()] || (el.list ? 'combobox' : 'textbox');
        if (tag === 'select') return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
        if (tag === 'section') return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : 'generic';
        if (el.isContentEditable && el.getAttribute('contenteditable') !== null) return 'textbox';
        return tagRoles[tag] || 'generic';
      }
      function ownText(el) {
        const copy = el.cloneNode(true);
        copy.querySelectorAll('input,select,textarea,script,style').forEach(e => e.remove());
        return norm(copy.textContent);
      }
      function labels(el) {
        return el.labels ? [...el.labels].map(ownText).filter(Boolean) : [];
      }
      function name(el) {
        const by = el.getAttribute('aria-labelledby');
        if (by) {
          const home = el.getRootNode().getElementById ? el.getRootNode() : document;
          const text = by.split(/\s+/).map(id => home.getElementById(id)).filter(Boolean).map(e => norm(e.innerText || e.textContent)).join(' ');
          if (text) return text;
        }
        const aria = norm(el.getAttribute('aria-label'));
        if (aria) return aria;
        const tag = el.tagName.toLowerCase();
        if (tag === 'input' && ['submit', 'button', 'reset'].includes(el.type)) return norm(el.value) || (el.type === 'submit' ? 'Submit' : el.type === 'reset' ? 'Reset' : '');
        if (tag === 'input' && el.type === 'image') return norm(attr(el, 'alt'));
        if (['input', 'textarea', 'select'].includes(tag)) return labels(el).join(' ') || norm(attr(el, 'title')) || norm(attr(el, 'placeholder'));
        if (tag === 'img') return norm(attr(el, 'alt') || attr(el, 'title'));
        if (tag === 'fieldset') { const legend = el.querySelector('legend'); if (legend) return norm(legend.textContent); }
        const r = role(el);
        if (['button', 'link', 'heading', 'checkbox', 'radio', 'option', 'tab', 'menuitem', 'cell', 'columnheader', 'listitem', 'row', 'switch'].includes(r))
          return norm(shown(el) || el.textContent) || norm(attr(el, 'title'));
        return norm(attr(el, 'title'));
      }
      function fieldNames(el) {
        return [name(el), ...labels(el), norm(attr(el, 'placeholder')), norm(el.getAttribute('name')), norm(attr(el, 'id')), norm(el.getAttribute('aria-label'))].filter(Boolean);
      }
      function regionNames(el) {
        const names = [name(el), norm(attr(el, 'id'))];
        const heading = el.querySelector('h1,h2,h3,h4,h5,h6,legend,caption');
        if (heading && !['LI', 'TR'].includes(el.tagName)) names.push(norm(heading.textContent));
        return names.filter(Boolean);
      }
      function level(text, want) {
        const a = norm(text), b = norm(want);
        if (a === b) return 3;
        if (a.toLowerCase() === b.toLowerCase()) return 2;
        return b && a.toLowerCase().includes(b.toLowerCase()) ? 1 : 0;
      }
      function visible(el) {
        if (!el.isConnected) return false;
        const style = getComputedStyle(el);
        if (style.visibility !== 'visible' || style.display === 'none') return false;
        const box = el.getBoundingClientRect();
        if (box.width > 0 && box.height > 0) return true;
        return style.display === 'contents' && [...el.children].some(visible);
      }
      function describe(el) {
        if (!el || !el.tagName) return 'nothing';
        const r = role(el), n = r === 'generic' || r === 'paragraph' ? norm(shown(el) || el.textContent) : name(el);
        let where = el.tagName.toLowerCase() + (attr(el, 'id') ? '#' + attr(el, 'id') : '');
        if (!attr(el, 'id') && typeof el.className === 'string' && el.className.trim()) where += '.' + el.className.trim().split(/\s+/).join('.');
        const short = n.length > 60 ? n.slice(0, 57) + '…' : n;
        return (r === 'generic' ? where : r) + (short ? ' "' + short + '"' : '') + (r === 'generic' ? '' : ' (' + where + ')');
      }
      // Open shadow roots (web components) are searched too, as Playwright
      // does, their elements in place of their host's; closed ones cannot be.
      // `pierce` says whether the document has any: each check looks first.
      let pierce = false;
      function hasHost(root) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
        for (let el = walker.nextNode(); el; el = walker.nextNode()) if (el.shadowRoot) return true;
        return false;
      }
      function all(root, selector) {
        if (!pierce || (!root.shadowRoot && !hasHost(root))) return [...root.querySelectorAll(selector)];
        // querySelectorAll's matches for the root's own tree (`:scope` is the root, not each element), in tree order.
        const found = root.shadowRoot ? all(root.shadowRoot, selector) : [], walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
        const matching = new Set(root.querySelectorAll(selector));
        for (let el = walker.nextNode(); el; el = walker.nextNode()) {
          if (matching.has(el)) found.push(el);
          if (el.shadowRoot) found.push(...all(el.shadowRoot, selector));
        }
        return found;
      }
      // Whether `inner` is `outer` or inside it, in the flat tree: across
      // shadow roots, and a slotted element inside the slot that shows it.
      function within(outer, inner) {
        for (let node = inner; node; node = node.assignedSlot || node.parentNode || node.host) if (node === outer) return true;
        return false;
      }
      // Whether an element's text is all in its light tree (no shadow host, no slot): `innerText` reads it.
      // This and `flat` are known once per check: a text search asks them of every element and its ancestors.
      let plainKnown = new Map(), flatKnown = new Map();
      function plain(el) {
        let known = plainKnown.get(el);
        if (known === undefined) plainKnown.set(el, known = !el.shadowRoot && el.tagName !== 'SLOT' && [...el.children].every(plain));
        return known;
      }
      // What a node shows, read along the flat tree as it is drawn: a host's
      // open shadow root in place of its children, a slot's assigned nodes
      // (or its fallback) in place of the slot; a block on its own line.
      // SVG has no `innerText`: its text nodes are read.
      function flat(node) {
        let known = flatKnown.get(node);
        if (known === undefined) flatKnown.set(node, known = read(node));
        return known;
      }
      function read(node) {
        if (node.nodeType === 3) {
          const parent = node.parentElement || (node.parentNode && node.parentNode.host);
          return parent && getComputedStyle(parent).visibility !== 'visible' ? '' : node.textContent.replace(/\s+/g, ' ');
        }
        if (node.nodeType !== 1 || ['STYLE', 'SCRIPT', 'TEMPLATE', 'HEAD'].includes(node.tagName)) return '';
        const display = getComputedStyle(node).display;
        if (display === 'none') return '';
        if (node.tagName === 'BR') return '\n';
        let text;
        if ('innerText' in node && plain(node)) text = node.innerText;
        else {
          const slotted = node.tagName === 'SLOT' ? node.assignedNodes() : [];
          const kids = node.shadowRoot ? node.shadowRoot.childNodes : slotted.length ? slotted : node.childNodes;
          text = [...kids].map(flat).join('');
        }
        return /^(inline|contents)/.test(display) ? text : '\n' + text + '\n';
      }
      // What an element shows: its `innerText`, or its flat tree's text when it holds a shadow host or a slot.
      function shown(el) {
        if (!pierce || plain(el)) return el.innerText || '';
        return flat(el).replace(/ *\n[\n ]*/g, '\n').trim();
      }
      // Every element under `root` (the body's, for the document).
      function elements(root) { return all(root === document ? document.body || document : root, '*'); }
      function pool(spec, root) {
        switch (spec.kind) {
          case 'css': return all(root, spec.name);
          case 'xpath': {
            const found = document.evaluate(spec.name, root, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null), list = [];
            for (let i = 0; i < found.snapshotLength; i++) if (found.snapshotItem(i).nodeType === 1) list.push(found.snapshotItem(i));
            return list;
          }
          case 'clickable': return all(root, clickable);
          case 'field': return all(root, field).filter(el => !spec.role || role(el) === spec.role);
          case 'role': return all(root, '*').filter(el => role(el) === spec.role);
          case 'region': return all(root, '*').filter(el => !['SCRIPT', 'STYLE', 'HEAD'].includes(el.tagName));
          default: return elements(root).filter(el => !['SCRIPT', 'STYLE', 'OPTION'].includes(el.tagName));
        }
      }
      function score(spec, el) {
        if (spec.kind === 'css' || spec.kind === 'xpath' || (spec.kind === 'role' && !spec.name)) return 3;
        const names = spec.kind === 'field' ? fieldNames(el) : spec.kind === 'region' ? regionNames(el)
          : spec.kind === 'text' ? [norm(shown(el))] : [name(el)];
        return Math.max(0, ...names.map(n => level(n, spec.name)));
      }
      function search(spec, root) {
        const scored = pool(spec, root).map(el => ({ el, level: score(spec, el) })).filter(e => e.level > 0);
        const shown = scored.filter(e => visible(e.el)), hidden = scored.filter(e => !visible(e.el));
        const best = Math.max(0, ...shown.map(e => e.level));
        let matches = shown.filter(e => e.level === best).map(e => e.el);
        // Text is found in its innermost element: drop an element whose child matches too.
        if (spec.kind === 'text' || spec.kind === 'region') matches = matches.filter(el => !matches.some(o => o !== el && within(el, o)));
        return { matches, hidden: hidden.map(e => e.el) };
      }
      function candidates(spec, root) {
        const seen = new Set(), list = [];
        const kind = spec.kind === 'css' || spec.kind === 'xpath' ? 'clickable' : spec.kind;
        const source = kind === 'text' ? elements(root).filter(el => [...el.childNodes].some(n => n.nodeType === 3 && norm(n.textContent)))
          : pool({ kind, role: spec.role }, root);
        for (const el of source) {
          if (!visible(el)) continue;
          const names = kind === 'field' ? [describe(el) + (attr(el, 'placeholder') ? ' placeholder "' + attr(el, 'placeholder') + '"' : '')]
            : kind === 'text' ? [norm([...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join(' '))]
            : kind === 'region' ? regionNames(el).slice(0, 1).map(n => describe(el)) : [describe(el)];
          for (const n of names) if (n && !seen.has(n) && list.length < 300) { seen.add(n); list.push(n); }
        }
        return list;
      }
      function resolve(spec) {
        let root = document;
        if (spec.scope) {
          const found = resolve(spec.scope);
          if (found.state !== 'ok') return Object.assign(found, { inScope: true });
          root = found.el;
        }
        if (!document.body) return { state: 'missing', hidden: [], candidates: [] };
        const { matches, hidden } = search(spec, root);
        if (matches.length === 0) return { state: 'missing', hidden: hidden.slice(0, 5).map(describe), candidates: candidates(spec, root) };
        if (matches.length > 1 && !spec.first) return { state: 'ambiguous', elements: matches.slice(0, 10).map(describe), count: matches.length };
        return { state: 'ok', el: matches[0], element: describe(matches[0]), count: matches.length, all: matches };
      }
      // The next animation frame (or 100 ms, for a page that draws none).
      function frame() {
        return new Promise(done => {
          let over = false;
          const end = () => { if (!over) { over = true; done(); } };
          requestAnimationFrame(end);
          setTimeout(end, 100);
        });
      }
      function disabled(el) {
        return (el.matches && el.matches(':disabled')) || el.getAttribute('aria-disabled') === 'true';
      }
      function focusForTyping(el) {
        el.focus();
        if (typeof el.select === 'function') el.select();
        else { const range = document.createRange(); range.selectNodeContents(el); const s = getSelection(); s.removeAllRanges(); s.addRange(range); }
        return document.activeElement === el;
      }
      function strip(found) { delete found.el; delete found.all; return found; }
      // Changes to the document (its elements, attributes and text; input,
      // transitions, history), counted so a check that did not hold can
      // wait for the next change instead of a fixed interval. `seen` is the
      // count when the last check began: a change during or after it wakes
      // `settle` at once.
      // A page may have removed or replaced what watching needs (its own
      // MutationObserver, addEventListener, fake timers): then the helper is
      // still made, and `settle` waits its whole interval, or asks the
      // caller to wait when the page's timers may never fire.
      const watch = { changes: 0, seen: -1, wake: null };
      const bump = () => { watch.changes++; if (watch.wake) watch.wake(); };
      try { new MutationObserver(bump).observe(document, { subtree: true, childList: true, attributes: true, characterData: true }); } catch (e) {}
      try {
        for (const type of ['input', 'change', 'transitionend', 'animationend', 'load', 'hashchange', 'popstate', 'pageshow'])
          addEventListener(type, bump, true);
      } catch (e) {}
      const isNative = f => typeof f === 'function' && /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(f));
      const later = setTimeout, cancel = clearTimeout, canWait = isNative(later) && isNative(cancel);
      const checks = {
        async act(spec) {
          const found = resolve(spec);
          if (found.state !== 'ok') return strip(found);
          const el = found.el;
          if (spec.enabled && disabled(el)) return { state: 'disabled', element: found.element };
          if (spec.editable && (el.readOnly || (!el.isContentEditable && !['INPUT', 'TEXTAREA'].includes(el.tagName))))
            return { state: 'not editable', element: found.element };
          let box = el.getBoundingClientRect();
          if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) el.scrollIntoView({ block: 'center', inline: 'center' });
          if (spec.pointer) {
            // Stable: the same box an animation frame apart (Playwright's rule).
            const before = el.getBoundingClientRect();
            await frame();
            if (!el.isConnected) return { state: 'detached', element: found.element };
            box = el.getBoundingClientRect();
            if (box.x !== before.x || box.y !== before.y || box.width !== before.width || box.height !== before.height)
              return { state: 'moving', element: found.element };
          } else box = el.getBoundingClientRect();
          const x = box.left + box.width / 2, y = box.top + box.height / 2;
          if (spec.pointer) {
            let hit = document.elementFromPoint(x, y);
            while (hit && hit.shadowRoot) {
              const inner = hit.shadowRoot.elementFromPoint(x, y);
              if (!inner || inner === hit) break;
              hit = inner;
            }
            const ours = hit && (within(el, hit) || (el.labels && [...el.labels].some(l => within(l, hit))));
            if (!ours) return { state: 'covered', element: found.element, by: describe(hit) };
          }
          window.__storyrunTarget = el;
          if (spec.focus) focusForTyping(el);
          return { state: 'ok', element: found.element, x, y, checked: !!el.checked || el.getAttribute('aria-checked') === 'true' };
        },
        query(spec) {
          const found = resolve(spec);
          if (found.state === 'ok') {
            const el = found.el;
            const value = el.isContentEditable && !('value' in el) ? norm(el.innerText) : String(el.value === undefined ? '' : el.value);
            const selected = el.tagName === 'SELECT' ? [...el.selectedOptions].map(o => norm(o.textContent)) : [];
            Object.assign(found, { value, checked: !!el.checked || el.getAttribute('aria-checked') === 'true', disabled: disabled(el),
              selected, text: norm(el.innerText), elements: found.all.slice(0, 10).map(describe) });
          }
          return strip(found);
        },
        count(spec) {
          let root = document;
          if (spec.scope) {
            const found = resolve(spec.scope);
            if (found.state !== 'ok') return strip(Object.assign(found, { inScope: true }));
            root = found.el;
          }
          const matches = spec.kind === 'text' || spec.name ? search(spec, root).matches : pool(spec, root).filter(visible);
          return { state: 'ok', count: matches.length, elements: matches.slice(0, 20).map(describe) };
        },
        text(scope) {
          if (!scope) return { state: 'ok', text: document.body ? shown(document.body) : '' };
          const found = resolve(scope);
          if (found.state !== 'ok') return strip(Object.assign(found, { inScope: true }));
          return { state: 'ok', text: shown(found.el) };
        },
        focusForTyping() { return focusForTyping(window.__storyrunTarget); },
        clearTarget() {
          const el = window.__storyrunTarget;
          if ('value' in el) el.value = ''; else el.textContent = '';
          el.dispatchEvent(new Event('input', { bubbles: true }));
          el.dispatchEvent(new Event('change', { bubbles: true }));
        },
        checked() {
          const el = window.__storyrunTarget;
          return !!el.checked || el.getAttribute('aria-checked') === 'true';
        },
        selectOption(option) {
          const el = window.__storyrunTarget;
          if (el.tagName !== 'SELECT') return { state: 'not a select', element: describe(el) };
          const options = [...el.options];
          const best = Math.max(0, ...options.map(o => Math.max(level(o.textContent, option), level(o.label, option), o.value === option ? 3 : 0)));
          const chosen = options.filter(o => Math.max(level(o.textContent, option), level(o.label, option), o.value === option ? 3 : 0) === best);
          if (best === 0) return { state: 'no option', options: options.map(o => norm(o.textContent)) };
          if (chosen.length > 1) return { state: 'ambiguous option', options: chosen.map(o => norm(o.textContent)) };
          chosen[0].selected = true;
          el.dispatchEvent(new Event('input', { bubbles: true }));
          el.dispatchEvent(new Event('change', { bubbles: true }));
          return { state: 'ok' };
        },
        page() { return { title: document.title, url: location.href, path: location.pathname + location.search + location.hash }; }
      };
      const helper = {};
      for (const [key, check] of Object.entries(checks)) helper[key] = argument => {
        watch.seen = watch.changes;
        pierce = hasHost(document);
        plainKnown = new Map(); flatKnown = new Map();
        return check(argument);
      };
      // True at the document's next change since the last check or settle
      // (at once when there was one, or when none ran in this document yet:
      // it is new), false after `ms`; 'unwatched' when the page's timers are
      // its own, for the caller to wait instead. A settle counts as seeing
      // the changes, so a wait whose check reads nothing from the page (a
      // dialog, a request) does not spin. Async, awaiting a thenable: its
      // promise is the browser's, whatever the page made of `Promise`.
      helper.settle = async ms => {
        if (watch.seen === -1 || watch.changes !== watch.seen) { watch.seen = watch.changes; return true; }
        if (!canWait) return 'unwatched';
        return await { then(done) {
          const over = later(() => { watch.wake = null; done(false); }, ms);
          watch.wake = () => { cancel(over); watch.wake = null; done(true); };
        } };
      };
      return helper;
    }
    """#
}
