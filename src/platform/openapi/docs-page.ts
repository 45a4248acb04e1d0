/**
 * A readable API reference that needs no network: the page fetches openapi.json from this server and renders
 * it with a few lines of script (the usual viewers load themselves from a CDN).
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>svc API v1</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1f2933;background:#f8fafc}
main{max-width:960px;margin:0 auto;padding:24px}
h1{margin:0 0 4px}pre{white-space:pre-wrap;background:#fff;border:1px solid #e4e7eb;border-radius:6px;padding:12px;font-size:13px}
details{background:#fff;border:1px solid #e4e7eb;border-radius:6px;margin:8px 0;padding:8px 12px}
summary{cursor:pointer;font-family:ui-monospace,monospace}
.m{display:inline-block;min-width:64px;font-weight:700}.GET{color:#0b7285}.POST{color:#2b8a3e}.PUT{color:#e67700}.PATCH{color:#862e9c}.DELETE{color:#c92a2a}
.public{font-size:12px;background:#e6fcf5;color:#087f5b;border-radius:4px;padding:1px 6px;margin-left:8px}
</style></head><body><main>
<h1>svc API v1</h1><p id="intro">Loading <a href="openapi.json">openapi.json</a>…</p><div id="ops"></div>
</main><script>
fetch('openapi.json').then(r=>r.json()).then(doc=>{
  const esc=s=>String(s).replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
  document.getElementById('intro').innerHTML='<pre>'+esc(doc.info.description)+'</pre>';
  const out=[];
  for(const [path,item] of Object.entries(doc.paths))for(const [method,op] of Object.entries(item)){
    const isPublic=Array.isArray(op.security)&&op.security.length===0;
    out.push('<details><summary><span class="m '+method.toUpperCase()+'">'+method.toUpperCase()+'</span>'+esc(path)+
      (isPublic?'<span class="public">public</span>':'')+' — '+esc(op.summary||op.operationId||'')+'</summary><pre>'+
      esc(JSON.stringify({operationId:op.operationId,description:op.description,parameters:op.parameters,requestBody:op.requestBody,responses:op.responses},null,2))+'</pre></details>');
  }
  const section=(title,entries)=>{
    out.push('<h2>'+esc(title)+'</h2>');
    for(const [name,value] of entries)out.push('<details id="'+esc(name)+'"><summary>'+esc(name)+'</summary><pre>'+esc(JSON.stringify(value,null,2))+'</pre></details>');
  };
  section('Webhook events',Object.entries(doc.webhooks||{}).map(([type,item])=>[type,{description:item.post.description,headers:item.post.parameters,body:item.post.requestBody}]));
  section('Schemas',Object.entries((doc.components||{}).schemas||{}).map(([name,schema])=>['#/components/schemas/'+name,schema]));
  document.getElementById('ops').innerHTML=out.join('');
});
</script></body></html>`;
