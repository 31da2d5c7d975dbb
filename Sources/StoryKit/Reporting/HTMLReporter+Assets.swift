extension HTMLReporter {
    /// The page's style sheet.
    static let css = """
        body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
        header{background:#fff;border-bottom:1px solid #d0d7de;padding:16px 32px;position:sticky;top:0}
        h1{margin:0 0 8px;font-size:22px}h2{font-size:16px;margin:24px 0 8px}h2 small{color:#656d76;font-weight:normal}
        main{padding:0 32px 32px}
        .bar{display:flex;height:12px;border-radius:6px;overflow:hidden;background:#d0d7de}
        .bar span{display:block}.bar .passed{background:#1a7f37}.bar .failed{background:#cf222e}
        .bar .undefined{background:#bf8700}.bar .skipped{background:#0969da}
        .counts{margin:6px 0 0;color:#444}
        .filters{margin-top:8px;display:flex;gap:6px}.filters button{border:1px solid #d0d7de;background:#fff;border-radius:6px;padding:2px 10px;cursor:pointer}
        .filters button.on{background:#1f2328;color:#fff}.filters input{flex:1;max-width:320px;padding:2px 8px;border:1px solid #d0d7de;border-radius:6px}
        details.story{background:#fff;border:1px solid #d0d7de;border-left:6px solid #d0d7de;border-radius:6px;margin:8px 0;padding:6px 12px}
        details.passed{border-left-color:#1a7f37}details.failed{border-left-color:#cf222e}
        details.undefined{border-left-color:#bf8700}details.skipped{border-left-color:#0969da}
        summary{cursor:pointer;font-weight:600}
        .status{display:inline-block;min-width:76px;font-size:12px;text-transform:uppercase;font-weight:700}
        .passed>summary .status{color:#1a7f37}.failed>summary .status{color:#cf222e}
        .undefined>summary .status{color:#bf8700}.skipped>summary .status{color:#0969da}
        .where{color:#656d76;font-weight:normal;font-size:12px;margin-left:8px}
        .tag{background:#ddf4ff;color:#0969da;border-radius:10px;padding:0 8px;font-size:12px;font-weight:normal}
        ol.steps{list-style:none;padding:0;margin:8px 0 4px}
        li.step{padding:2px 8px;border-radius:4px;margin:2px 0}
        li.passed{background:#dafbe1}li.failed,li.ambiguous{background:#ffebe9}li.undefined{background:#fff8c5}li.skipped{background:#eef1f4;color:#656d76}
        .keyword{font-weight:700}.match{font-size:12px;color:#656d76}
        pre{white-space:pre-wrap;margin:4px 0;padding:6px 8px;border-radius:4px;font-size:13px}
        pre.error{background:#fff;border:1px solid #ff8182;color:#82071e}pre.snippet{background:#fff;border:1px dashed #bf8700}
        .problems li{list-style:none}.problems pre{background:#fff;border:1px solid #d0d7de}
        .hidden{display:none}
        """

    /// The filters and search; without JavaScript the page shows everything.
    static let script = """
        (function(){var nav=document.querySelector('.filters');nav.hidden=false;var filter='all',query='';
        function apply(){document.querySelectorAll('details.story').forEach(function(d){
        var okStatus=filter==='all'||d.dataset.status===filter;var okText=!query||d.textContent.toLowerCase().indexOf(query)>=0;
        d.classList.toggle('hidden',!(okStatus&&okText));});}
        nav.querySelectorAll('button').forEach(function(b){b.addEventListener('click',function(){filter=b.dataset.filter;
        nav.querySelectorAll('button').forEach(function(x){x.classList.toggle('on',x===b);});apply();});});
        nav.querySelector('input').addEventListener('input',function(e){query=e.target.value.toLowerCase();apply();});})();
        """
}
