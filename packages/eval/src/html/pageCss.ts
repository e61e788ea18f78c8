/** The one stylesheet of the trace page and the report page (inlined: the pages stand alone). */
export const PAGE_CSS = `
:root{color-scheme:light;--ink:#1d2330;--dim:#5d6679;--line:#d9dde6;--bg:#f6f7fa;--card:#fff;
--model:#3b6fd8;--tool:#d9822b;--summary:#7b5bd6;--ok:#1f8a4c;--bad:#c93636;--warn:#b07a00;--call:#e4e8f0}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
main{max-width:1180px;margin:0 auto;padding:20px 16px 48px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}h3{font-size:14px;margin:0}
.sub{color:var(--dim);margin:0 0 16px}
.stats{display:flex;flex-wrap:wrap;gap:8px;margin:12px 0}
.stat{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px 12px;min-width:110px}
.stat b{display:block;font-size:18px}.stat span{color:var(--dim);font-size:12px}
.timeline{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px}
.lane{display:grid;grid-template-columns:140px 1fr;gap:8px;align-items:center;padding:4px 0;border-bottom:1px dashed var(--line)}
.lane:last-child{border-bottom:0}
.lane-name{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.track{position:relative;height:34px;background:repeating-linear-gradient(90deg,transparent 0 calc(10% - 1px),var(--line) calc(10% - 1px) 10%)}
.bar{position:absolute;height:12px;border-radius:3px;min-width:3px;opacity:.92}
.bar.call{top:0;height:34px;background:var(--call);opacity:.7}
.bar.model{top:4px;background:var(--model)}.bar.summary{top:4px;background:var(--summary)}
.bar.tool{top:18px;background:var(--tool)}
.mark{position:absolute;top:10px;width:10px;height:10px;margin-left:-5px;transform:rotate(45deg);background:var(--warn)}
.mark.error,.mark.interrupt{background:var(--bad)}.mark.delivery{background:var(--ok);border-radius:50%;transform:none}
.legend{display:flex;flex-wrap:wrap;gap:12px;color:var(--dim);font-size:12px;margin-top:8px}
.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}
details.call{background:var(--card);border:1px solid var(--line);border-radius:8px;margin:8px 0;padding:8px 12px}
details.call>summary{cursor:pointer;font-weight:600}
.meta{color:var(--dim);font-weight:400;font-size:12px}
ol.steps{list-style:none;margin:8px 0 0;padding:0}
li.step{border-left:3px solid var(--model);padding:4px 0 4px 10px;margin:8px 0}
li.step.summary{border-color:var(--summary)}
.card{border:1px solid var(--line);border-radius:6px;padding:6px 8px;margin:6px 0;background:#fbfcfe}
.card.tool{border-left:3px solid var(--tool)}.card.tool.failed{border-left-color:var(--bad)}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;background:var(--call)}
.badge.ok{background:#dcf2e4;color:var(--ok)}.badge.bad{background:#f8dede;color:var(--bad)}.badge.warn{background:#fbf0d0;color:var(--warn)}
pre{margin:4px 0;padding:6px 8px;background:#f1f3f8;border-radius:4px;white-space:pre-wrap;word-break:break-word;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;max-height:320px;overflow:auto}
.marker{margin:4px 0;font-size:13px}.marker.error,.marker.interrupt{color:var(--bad)}.marker.delivery{color:var(--ok)}
.marker.approval,.marker.denied,.marker.stop,.marker.compress,.marker.guardrail{color:var(--warn)}
table{border-collapse:collapse;width:100%;background:var(--card);font-size:13px}
th,td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
th{background:#eef1f6;font-weight:600}
.scroll{overflow-x:auto;border:1px solid var(--line);border-radius:8px}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
a{color:var(--model)}
@media (max-width:640px){
main{padding:12px 8px 32px}.lane{grid-template-columns:1fr}.lane-name{font-size:12px}
.stat{min-width:calc(50% - 4px)}th,td{padding:4px 5px}
}
`;
