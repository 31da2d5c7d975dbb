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
        details.story{background:#fff;border:1px solid var(--line);border-left:6px solid var(--line);border-radius:10px;margin:10px 0;padding:10px 16px 10px 30px}
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

    /// The filters, search, expand/collapse and technical details; without
    /// JavaScript the page shows everything, technical details included.
    static let script = """
        (function(){var root=document.documentElement;root.classList.add('js');
        var nav=document.querySelector('.tools');nav.hidden=false;var filter='all',query='';
        var stories=[].slice.call(document.querySelectorAll('details.story'));
        var cards=[].slice.call(document.querySelectorAll('.card'));
        var shown=nav.querySelector('.shown');
        function apply(){var n=0;stories.forEach(function(d){
        var ok=(filter==='all'||d.dataset.status===filter)&&(!query||d.textContent.toLowerCase().indexOf(query)>=0);
        d.classList.toggle('hidden',!ok);if(ok){n++;}});
        document.querySelectorAll('section.file').forEach(function(s){s.classList.toggle('hidden',!s.querySelector('details.story:not(.hidden)'));});
        document.querySelector('.empty').classList.toggle('hidden',n>0);
        shown.textContent=n===stories.length?'':n+' of '+stories.length+' stories shown';}
        cards.forEach(function(c){c.addEventListener('click',function(){filter=c.dataset.filter;
        cards.forEach(function(x){x.classList.toggle('on',x===c);});apply();});});
        nav.querySelector('input[type=search]').addEventListener('input',function(e){query=e.target.value.toLowerCase();apply();});
        nav.querySelector('[data-action=expand]').addEventListener('click',function(){stories.forEach(function(d){d.open=true;});});
        nav.querySelector('[data-action=collapse]').addEventListener('click',function(){stories.forEach(function(d){d.open=false;});});
        nav.querySelector('[data-action=technical]').addEventListener('change',function(e){root.classList.toggle('technical',e.target.checked);});
        function reveal(){var d=location.hash&&document.getElementById(location.hash.slice(1));if(d&&d.tagName==='DETAILS'){d.open=true;}}
        window.addEventListener('hashchange',reveal);reveal();
        window.addEventListener('beforeprint',function(){stories.forEach(function(d){d.open=true;});});})();
        """
}
