/* SPDX-License-Identifier: Apache-2.0 */
/* A fabric report as one self-contained HTML file (include/rocectl/result.h, diag.h): inline
 * CSS, a small inline script, and the data as JSON in a <script type="application/json">
 * element; the script draws spines on top, then each leaf with its hosts under it, every
 * device and link coloured by its state, the drift grouped by field, and a device's detail
 * on click (or from the address: FILE#dev=NAME).  Nothing is loaded from anywhere (a
 * Content-Security-Policy of default-src 'none' says so to the browser), so the file can
 * be mailed and opened offline.
 *
 * Device names come from the inventory, but ports, values and error messages come from the
 * devices and are untrusted: they only ever appear inside JSON strings where '<', '>' and
 * '&' are \u escapes and '/' is "\/" (no "</script>" can close the element, see the HTML
 * standard's "restrictions for contents of script elements", and no URL appears), invalid UTF-8 and
 * control characters become U+FFFD or \u escapes, and the script puts them in the page with
 * textContent, never as markup.  Sizes stay linear: one small element per device, one click handler
 * for all, at most HTML_DRIFT_PER_DEV drift entries per device (the per-field counts are complete).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/diag.h"
#include "rocectl/result.h"
#include "rocectl/util.h"

#define HTML_DRIFT_PER_DEV 24

/* A JSON string, safe inside an HTML <script> element. */
static void js_str(FILE *f, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strnlen(str, max);

	fputc('"', f);
	for (size_t i = 0; i < len;) {
		size_t n = rc_utf8_seq_len(s + i, len - i);

		if (!n)
			fputs("\\ufffd", f);
		else if (s[i] == '"' || s[i] == '\\' || s[i] == '/')
			fprintf(f, "\\%c", s[i]);
		else if (s[i] < 0x20 || s[i] == 0x7f || s[i] == '<' || s[i] == '>' || s[i] == '&')
			fprintf(f, "\\u%04x", s[i]);
		else if (n == 3 && s[i] == 0xe2 && s[i + 1] == 0x80 && (s[i + 2] & 0xfe) == 0xa8)
			fprintf(f, "\\u%04x", 0x2000 | (s[i + 2] & 0x3f)); /* U+2028, U+2029 */
		else
			fwrite(s + i, 1, n, f);
		i += n ? n : 1;
	}
	fputc('"', f);
}

static const char page_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
    "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
    "<meta name=\"referrer\" content=\"no-referrer\">\n"
    "<title>rocectl fabric report</title>\n<style>\n"
    "body{font:13px system-ui,sans-serif;margin:12px;color:#222;background:#fafafa}\n"
    "h1{font-size:18px;margin:0 0 6px}h2{font-size:15px;margin:14px 0 6px}\n"
    ".legend span,.dev{display:inline-block;border:1px solid #0003;border-radius:3px;"
    "padding:1px 4px;margin:1px;cursor:pointer;font-size:11px;white-space:nowrap}\n"
    ".s-sync,.s-clean{background:#c8ecc8}.s-drift,.s-root{background:#f5a3a3}\n"
    ".s-unreachable,.s-unknown{background:#bbb;border-style:dashed}"
    ".s-storm{background:#d9a3f5}.s-relay{background:#fbd38d}.s-skipped,.s-idle{"
    "background:#fff;color:#888}\n"
    ".l-sync,.l-clean{border-left:4px solid #2a2}.l-drift,.l-root,.l-mismatch{border-left:4px "
    "solid #d22}.l-unknown{border-left:4px solid #888}.l-relay{border-left:4px solid #e90}"
    ".l-storm{border-left:4px solid #a3e}.l-skipped,.l-idle{border-left:4px solid #ddd}\n"
    "line.l-sync,line.l-clean{stroke:#2a2}line.l-drift,line.l-root,line.l-mismatch{stroke:#d22;"
    "stroke-width:2}line.l-unknown{stroke:#888;stroke-dasharray:4}line.l-relay{stroke:#e90}"
    "line.l-storm{stroke:#a3e}\n"
    "#fab{position:relative}#links{position:absolute;left:0;top:0;pointer-events:none;z-index:1;"
    "opacity:.8}\n"
    ".tier{display:flex;flex-wrap:wrap;gap:4px;margin-bottom:60px;position:relative}\n"
    "#leaves{position:relative}.pod{display:flex;flex-wrap:wrap;gap:8px;"
    "align-items:flex-start;margin-bottom:10px}.podname{width:100%;font-weight:bold}"
    ".onepod .podname{display:none}\n"
    ".grp{border:1px solid #ccc;background:#fff;border-radius:4px;padding:3px;max-width:260px}\n"
    ".grp>.head{font-weight:bold;display:block;margin-bottom:3px}\n"
    "#detail{position:fixed;right:12px;top:12px;width:420px;max-height:90vh;overflow:auto;"
    "background:#fff;border:1px solid #888;padding:8px;display:none;box-shadow:0 2px 8px #0004}"
    "\ntable{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;"
    "font-size:12px;word-break:break-all}\n.sel{outline:3px solid #06c}\n"
    "</style></head>\n<body>\n<h1 id=\"title\">rocectl fabric report</h1>\n"
    "<div id=\"summary\"></div><div class=\"legend\" id=\"legend\"></div>\n"
    "<h2>Fabric</h2><div id=\"hidden\"></div><div id=\"fab\"><svg id=\"links\"></svg><div "
    "class=\"tier\" "
    "id=\"spines\"></div><div id=\"leaves\"></div></div>\n"
    "<h2 id=\"fields-title\">Drift by field</h2><table id=\"fields\"></table>\n"
    "<div id=\"detail\"></div>\n"
    "<script type=\"application/json\" id=\"data\">";

/* Draws the page from #data.  Leaves are grouped in pods: the leaves cabled to the same
 * spines (the inventory names no pod; a two-tier Clos is then one pod).  lines() reads every box's
 * position before it adds a line, so the browser lays the page out once, not once per link, and
 * past 128 switch links draws only those not in a good state: hundreds of green lines hide the
 * boxes they cross.  d: [name, role, state, error]; x: [dev, port, field, have, want]; l: [a, b,
 * state, a port, b port]; f: [field, changes, devices]. */
static const char page_tail[] =
    "</script>\n<script>\n"
    "(function(){'use strict';var t0=performance.now();\n"
    "var D=JSON.parse(document.getElementById('data').textContent),V=D.kind==='verify';\n"
    "function el(t,c,x){var e=document.createElement(t);if(c)e.className=c;"
    "if(x!==undefined)e.textContent=x;return e;}\n"
    "var roles=['host','leaf','spine'],parent=[],kids={},byDev={},nodes=[];\n"
    "D.x.forEach(function(x){(byDev[x[0]]=byDev[x[0]]||[]).push(x);});\n"
    "D.l.forEach(function(l){var a=D.d[l[0]],b=D.d[l[1]];\n"
    " if(a[1]===0&&b[1]!==0&&parent[l[0]]===undefined){parent[l[0]]=l[1];nodes[l[0]]=l[2];}\n"
    " if(b[1]===0&&a[1]!==0&&parent[l[1]]===undefined){parent[l[1]]=l[0];nodes[l[1]]=l[2];}});\n"
    "function chip(i){var d=D.d[i],e=el('span','dev s-'+d[2]+(nodes[i]?' l-'+nodes[i]:''),"
    "d[0]);e.dataset.i=i;e.dataset.state=d[2];if(nodes[i])e.dataset.link=nodes[i];"
    "e.id='dev-'+i;return e;}\n"
    "var sp=document.getElementById('spines'),lv=document.getElementById('leaves'),"
    "grp={},count={},ups={},pods={},npod=0;\n"
    "D.l.forEach(function(l){var a=D.d[l[0]][1],b=D.d[l[1]][1];"
    "if(a===1&&b===2)(ups[l[0]]=ups[l[0]]||[]).push(l[1]);"
    "else if(a===2&&b===1)(ups[l[1]]=ups[l[1]]||[]).push(l[0]);});\n"
    "function podOf(i){var k=(ups[i]||[]).sort(function(x,y){return x-y;}).join(','),"
    "p=pods[k];if(p)return p;p=pods[k]=el('div','pod');p.dataset.pod=++npod;\n"
    " p.appendChild(el('div','podname','pod '+npod+': '+(k?k.split(',').map(function(s){"
    "return D.d[s][0];}).join(', '):'no spine')));lv.appendChild(p);return p;}\n"
    "D.d.forEach(function(d,i){count[d[2]]=(count[d[2]]||0)+1;"
    "if(d[1]===2)sp.appendChild(chip(i));else if(d[1]===1){var g=el('div','grp'),"
    "c=chip(i);c.classList.add('head');g.appendChild(c);grp[i]=g;podOf(i).appendChild(g);}});\n"
    "if(npod<2)lv.classList.add('onepod');\n"
    "var orphans=null;\n"
    "D.d.forEach(function(d,i){if(d[1]!==0)return;var g=grp[parent[i]];"
    "if(!g){if(!orphans){orphans=el('div','grp');orphans.appendChild(el('b',null,"
    "'not under a leaf'));orphans.appendChild(el('br'));}g=orphans;}g.appendChild(chip(i));});\n"
    "if(orphans)lv.appendChild(orphans);\n"
    "document.getElementById('title').textContent='rocectl '+D.kind+' \\u2014 '+"
    "new Date(D.when*1000).toISOString();\n"
    "var states=V?['sync','drift','unreachable','skipped']:['root','storm','relay','clean',"
    "'unknown','idle'],lg=document.getElementById('legend');\n"
    "states.forEach(function(s){var e=el('span','s-'+s,s+': '+(count[s]||0));lg.appendChild(e);"
    "});\n"
    "document.getElementById('summary').textContent=D.d.length+' devices, '+D.l.length+"
    "' links'+(V?', '+D.x.length+' drifted fields shown':', '+D.np+' paths');\n"
    "var ft=document.getElementById('fields');\n"
    "if(!V){document.getElementById('fields-title').textContent='Findings';"
    "var h=ft.insertRow();['kind','device','port','message'].forEach(function(t){"
    "h.appendChild(el('th',null,t));});D.fi.forEach(function(f){var r=ft.insertRow();"
    "[f[0],D.d[f[1]][0],f[2],f[3]].forEach(function(t){r.insertCell().textContent=t;});});}\n"
    "else{var h2=ft.insertRow();['field','changes','devices'].forEach(function(t){"
    "h2.appendChild(el('th',null,t));});D.f.forEach(function(f){var r=ft.insertRow();"
    "f.forEach(function(t){r.insertCell().textContent=t;});});}\n"
    "function lines(){var svg=document.getElementById('links'),fab=document.getElementById("
    "'fab'),ns=svg.namespaceURI,box={},frag=document.createDocumentFragment();\n"
    " while(svg.firstChild)svg.removeChild(svg.firstChild);\n"
    " svg.setAttribute('width',fab.scrollWidth);svg.setAttribute('height',fab.scrollHeight);\n"
    " var o=fab.getBoundingClientRect();\n"
    " function rect(i){return box[i]||(box[i]=document.getElementById('dev-'+i)."
    "getBoundingClientRect());}\n"
    " var up=D.l.filter(function(l){return D.d[l[0]][1]>0&&D.d[l[1]][1]>0&&l[2]!=='skipped';}),"
    "many=up.length>128,hidden=0;\n"
    " up.forEach(function(l){var a=D.d[l[0]],b=D.d[l[1]];\n"
    "  if(many&&/^(sync|clean|idle)$/.test(l[2])){hidden++;return;}\n"
    "  var ea=rect(l[0]),eb=rect(l[1]),up=a[1]>b[1]?ea:eb,dn=a[1]>b[1]?eb:ea;\n"
    "  var ln=document.createElementNS(ns,'line');ln.setAttribute('class','l-'+l[2]);\n"
    "  ln.setAttribute('x1',up.left+up.width/2-o.left);ln.setAttribute('y1',up.bottom-o.top);\n"
    "  ln.setAttribute('x2',dn.left+dn.width/2-o.left);ln.setAttribute('y2',dn.top-o.top);\n"
    "  ln.dataset.a=a[0];ln.dataset.b=b[0];ln.dataset.state=l[2];frag.appendChild(ln);});\n"
    " svg.appendChild(frag);document.getElementById('hidden').textContent=hidden?hidden+"
    "' switch links in a good state are not drawn (too many to see)':'';}\n"
    "lines();window.addEventListener('resize',lines);\n"
    "var det=document.getElementById('detail'),sel=null;\n"
    "function row(t,cells,th){var r=t.insertRow();cells.forEach(function(c){"
    "if(th)r.appendChild(el('th',null,c));else r.insertCell().textContent=c;});}\n"
    "function show(i){var d=D.d[i];det.textContent='';det.style.display='block';\n"
    " det.appendChild(el('h2',null,d[0]));det.appendChild(el('div','dev s-'+d[2],d[2]+' ('+"
    "roles[d[1]]+')'));\n"
    " if(d[3]){det.appendChild(el('h2',null,'error'));det.appendChild(el('pre',null,d[3]));}\n"
    " var xs=byDev[i]||[];if(xs.length){var t=el('table');row(t,V?['port','field','have',"
    "'want']:['in','out','role','why'],true);\n"
    "  xs.forEach(function(x){row(t,x.slice(1));});det.appendChild(t);}\n"
    " if(d[4])det.appendChild(el('div',null,'and '+d[4]+' more'));\n"
    " var ls=D.l.filter(function(l){return l[0]===i||l[1]===i;});if(ls.length){"
    "var t2=el('table');row(t2,['link','state'],true);ls.forEach(function(l){row(t2,["
    "D.d[l[0]][0]+':'+l[3]+' \\u2014 '+D.d[l[1]][0]+':'+l[4],l[2]]);});det.appendChild(t2);}\n"
    " var c=el('button',null,'close');c.onclick=function(){det.style.display='none';};"
    "det.appendChild(c);}\n"
    "document.getElementById('fab').addEventListener('click',function(ev){var e=ev.target;"
    "if(!e.dataset||e.dataset.i===undefined)return;if(sel)sel.classList.remove('sel');sel=e;"
    "e.classList.add('sel');show(+e.dataset.i);});\n"
    "var m=/^#dev=(.+)$/.exec(location.hash),want=null;try{want=m&&decodeURIComponent(m[1]);}"
    "catch(e){}D.d.forEach(function(d,i){if(d[0]===want)show(i);});\n"
    "document.body.dataset.rendered=D.d.length;"
    "document.body.dataset.ms=Math.round(performance.now()-t0);\n"
    "})();\n</script>\n</body></html>\n";

static bool dev_ok(const struct rc_fleet_dev *d)
{
	return d->rc == 0 && d->run.read_ok && (d->run.have || !d->run.n_ports);
}

static size_t dev_drift(const struct rc_fleet_dev *d)
{
	if (!dev_ok(d))
		return 0;
	return d->run.changes.n - rc_changes_count(&d->run.changes, RC_CHANGE_UNSUPPORTED);
}

static const char *check_name(enum rc_check_status s)
{
	return s == RC_CHECK_OK ? "sync" : s == RC_CHECK_MISMATCH ? "mismatch" : "unknown";
}

struct dev_view {
	const struct rc_fleet_dev *fd;
	bool asym; /* a dual-homed host whose switch sides differ */
};

static const char *verify_state(const struct dev_view *v)
{
	if (!v->fd)
		return "skipped";
	if (!dev_ok(v->fd))
		return "unreachable";
	return dev_drift(v->fd) || v->asym ? "drift" : "sync";
}

static void device_entry(FILE *f, const struct rc_device *dev, const char *state, const char *error,
			 size_t more, bool first)
{
	fputs(first ? "\n[" : ",\n[", f);
	js_str(f, dev->name, sizeof(dev->name));
	fprintf(f, ",%d,\"%s\",", (int)dev->role, state);
	js_str(f, error ? error : "", RC_ERR_MSG_MAX);
	if (more)
		fprintf(f, ",%zu", more);
	fputc(']', f);
}

struct field_use {
	const char *field;
	size_t dev;
};

static int field_cmp(const void *a, const void *b)
{
	const struct field_use *x = a, *y = b;
	int c = strcmp(x->field, y->field);

	return c ? c : x->dev < y->dev ? -1 : x->dev > y->dev;
}

/* Every drifted field of the fleet with how often it drifted and on how many devices:
 * sorted, so n log n at any fleet size. */
static void field_counts(FILE *f, const struct rc_result *r)
{
	size_t n = 0, k = 0;
	struct field_use *v;

	for (size_t i = 0; i < r->fleet->n; i++)
		n += dev_ok(&r->fleet->devs[i]) ? r->fleet->devs[i].run.changes.n : 0;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return;
	for (size_t i = 0; i < r->fleet->n; i++) {
		const struct rc_fleet_dev *d = &r->fleet->devs[i];

		for (size_t j = 0; dev_ok(d) && j < d->run.changes.n; j++)
			if (d->run.changes.v[j].kind != RC_CHANGE_UNSUPPORTED)
				v[k++] = (struct field_use){d->run.changes.v[j].field, d->index};
	}
	qsort(v, k, sizeof(*v), field_cmp);
	for (size_t i = 0, first = 1; i < k; first = 0) {
		size_t j = i, devs = 0;

		for (; j < k && !strcmp(v[j].field, v[i].field); j++)
			devs += j == i || v[j].dev != v[j - 1].dev;
		fputs(first ? "\n[" : ",\n[", f);
		js_str(f, v[i].field, sizeof(((struct rc_change *)0)->field));
		fprintf(f, ",%zu,%zu]", j - i, devs);
		i = j;
	}
	free(v);
}

static void drift_entries(FILE *f, const struct rc_fleet_dev *d, bool *first)
{
	size_t shown = 0;

	for (size_t j = 0; dev_ok(d) && j < d->run.changes.n && shown < HTML_DRIFT_PER_DEV; j++) {
		const struct rc_change *c = &d->run.changes.v[j];

		if (c->kind == RC_CHANGE_UNSUPPORTED)
			continue;
		fprintf(f, "%s[%zu,", *first ? "\n" : ",\n", d->index);
		js_str(f, c->port, sizeof(c->port));
		fputc(',', f);
		js_str(f, c->field, sizeof(c->field));
		fputc(',', f);
		js_str(f, c->kind == RC_CHANGE_UNKNOWN ? "(unreadable)" : c->old_value,
		       sizeof(c->old_value));
		fputc(',', f);
		js_str(f, c->new_value, sizeof(c->new_value));
		fputc(']', f);
		*first = false;
		shown++;
	}
}

static void link_entry(FILE *f, const struct rc_inventory *inv, size_t li, const char *state,
		       bool first)
{
	const struct rc_link *l = &inv->links[li];

	fprintf(f, "%s[%zu,%zu,\"%s\",", first ? "\n" : ",\n", l->a.dev, l->b.dev, state);
	js_str(f, l->a.port, sizeof(l->a.port));
	fputc(',', f);
	js_str(f, l->b.port, sizeof(l->b.port));
	fputc(']', f);
}

/* v[] maps inventory devices to fleet devices: rc_result_device searches the fleet, and
 * once per link that is quadratic at fleet size. */
static size_t end_drift(const struct dev_view *v, const struct rc_link_end *e)
{
	const struct rc_fleet_dev *d = v[e->dev].fd;

	return d && dev_ok(d) ? rc_result_port_drift(d, e->port) : 0;
}

/* The inventory's links that were not checked (an end outside --limit): drawn as such, and
 * still used to place each host under its leaf. */
static void skipped_links(FILE *f, const struct rc_result *r, bool first)
{
	bool *checked = calloc(r->inv->n_links ? r->inv->n_links : 1, sizeof(*checked));

	if (!checked)
		return;
	for (size_t i = 0; i < r->n_links; i++)
		if (r->links[i].link < r->inv->n_links)
			checked[r->links[i].link] = true;
	for (size_t i = 0; i < r->inv->n_links; i++) {
		if (checked[i])
			continue;
		link_entry(f, r->inv, i, "skipped", first);
		first = false;
	}
	free(checked);
}

void rc_report_html(FILE *f, const struct rc_result *r)
{
	size_t nd = r->inv->n_devices;
	struct dev_view *v = calloc(nd ? nd : 1, sizeof(*v));
	bool first = true, first_link = true;

	if (!v)
		return;
	for (size_t i = 0; i < r->fleet->n; i++)
		v[r->fleet->devs[i].index].fd = &r->fleet->devs[i];
	for (size_t i = 0; i < r->n_hosts; i++)
		v[r->hosts[i].dev].asym |= r->hosts[i].status == RC_CHECK_MISMATCH;
	fputs(page_head, f);
	fprintf(f, "{\"kind\":\"verify\",\"when\":%lld,\"d\":[", (long long)r->when);
	for (size_t i = 0; i < nd; i++) {
		const struct rc_fleet_dev *d = v[i].fd;
		size_t drift = d ? dev_drift(d) : 0;

		device_entry(f, &r->inv->devices[i], verify_state(&v[i]),
			     d && !dev_ok(d) ? (d->err.msg[0] ? d->err.msg : "not read") : NULL,
			     drift > HTML_DRIFT_PER_DEV ? drift - HTML_DRIFT_PER_DEV : 0, i == 0);
	}
	fputs("],\n\"x\":[", f);
	for (size_t i = 0; i < r->fleet->n; i++)
		drift_entries(f, &r->fleet->devs[i], &first);
	fputs("],\n\"l\":[", f);
	for (size_t i = 0; i < r->n_links; i++, first_link = false) {
		const struct rc_link_check *lc = &r->links[i];
		const struct rc_link *l = &r->inv->links[lc->link];
		bool drift = end_drift(v, &l->a) || end_drift(v, &l->b);

		link_entry(f, r->inv, lc->link,
			   lc->status == RC_CHECK_OK && drift ? "drift" : check_name(lc->status),
			   first_link);
	}
	skipped_links(f, r, first_link);
	fputs("],\n\"f\":[", f);
	field_counts(f, r);
	fputs("]}", f);
	fputs(page_tail, f);
	free(v);
}

/* diagnose: the worst role a device or link takes on any path (root > storm > relay >
 * unknown > clean); a link takes the role of the hop it leads into, because a root or a
 * relay sends its pause back over its `in` port, and a storming NIC over its only one. */
static int role_rank(enum rc_diag_role r)
{
	static const int rank[] = {[RC_HOP_CLEAN] = 1,
				   [RC_HOP_UNKNOWN] = 2,
				   [RC_HOP_RELAY] = 3,
				   [RC_HOP_STORM] = 4,
				   [RC_HOP_ROOT] = 5};

	return (unsigned)r < sizeof(rank) / sizeof(rank[0]) ? rank[r] : 0;
}

static const char *rank_name(int rank)
{
	static const char *const names[] = {"idle", "clean", "unknown", "relay", "storm", "root"};

	return names[rank < 0 || rank > 5 ? 0 : rank];
}

static const char *fleet_error(const struct rc_fleet *fl, size_t dev)
{
	for (size_t i = 0; fl && i < fl->n; i++)
		if (fl->devs[i].index == dev && fl->devs[i].rc)
			return fl->devs[i].err.msg[0] ? fl->devs[i].err.msg : "not read";
	return NULL;
}

/* One hop per device in the detail, the first of its worst role. */
static void hop_entries(FILE *f, const struct rc_diag *d, const int *dev_rank)
{
	bool *shown = calloc(d->inv->n_devices ? d->inv->n_devices : 1, sizeof(*shown));
	bool first = true;

	if (!shown)
		return;
	for (size_t i = 0; i < d->n_paths; i++) {
		const struct rc_diag_path *p = &d->paths[i];

		for (size_t k = 0; k < p->p->n; k++) {
			const struct rc_trace_hop *h = &p->p->h[k];

			if (shown[h->dev] || role_rank(p->h[k].role) != dev_rank[h->dev])
				continue;
			shown[h->dev] = true;
			fprintf(f, "%s[%zu,", first ? "\n" : ",\n", h->dev);
			js_str(f, h->in ? h->in : "", RC_NAME_MAX);
			fputc(',', f);
			js_str(f, h->out ? h->out : "", RC_NAME_MAX);
			fprintf(f, ",\"%s\",", rc_diag_role_name(p->h[k].role));
			js_str(f, p->h[k].why, sizeof(p->h[k].why));
			fputc(']', f);
			first = false;
		}
	}
	free(shown);
}

/* By class there are no paths: each device's worst port (d->ports), every sampled device
 * at least clean, each link as the worse of its two ends. */
static void class_ranks(const struct rc_diag *d, int *dev_rank, int *link_rank)
{
	const struct rc_inventory *inv = d->inv;

	for (size_t i = 0; i < inv->n_devices; i++)
		dev_rank[i] = d->devs[i].sampled ? role_rank(RC_HOP_CLEAN) : 0;
	for (size_t i = 0; i < d->n_ports; i++) {
		const struct rc_diag_port_role *p = &d->ports[i];
		int rk = role_rank(p->role);

		if (rk > dev_rank[p->dev])
			dev_rank[p->dev] = rk;
		/* the port's own links, from the fabric's index of each device's links */
		for (size_t j = d->fab->adj_off[p->dev]; j < d->fab->adj_off[p->dev + 1]; j++) {
			size_t l = d->fab->adj[j];
			const struct rc_link *k = &inv->links[l];
			bool end = (k->a.dev == p->dev && !strcmp(k->a.port, p->port)) ||
				   (k->b.dev == p->dev && !strcmp(k->b.port, p->port));

			if (end && rk > link_rank[l])
				link_rank[l] = rk;
		}
	}
}

static void port_entries(FILE *f, const struct rc_diag *d, const int *dev_rank)
{
	bool *shown = calloc(d->inv->n_devices ? d->inv->n_devices : 1, sizeof(*shown));
	bool first = true;

	for (size_t i = 0; shown && i < d->n_ports; i++) {
		const struct rc_diag_port_role *p = &d->ports[i];

		if (shown[p->dev] || role_rank(p->role) != dev_rank[p->dev])
			continue;
		shown[p->dev] = true;
		fprintf(f, "%s[%zu,", first ? "\n" : ",\n", p->dev);
		js_str(f, p->port, RC_NAME_MAX);
		fprintf(f, ",\"\",\"%s\",", rc_diag_role_name(p->role));
		js_str(f, p->why, sizeof(p->why));
		fputc(']', f);
		first = false;
	}
	free(shown);
}

static void diag_findings(FILE *f, const struct rc_diag *d)
{
	bool first = true;

	for (size_t i = 0; i < d->n_findings; i++) {
		const struct rc_diag_finding *x = &d->findings[i];

		if (x->dev >= d->inv->n_devices) /* the page looks its device up by index */
			continue;
		fprintf(f, "%s[\"%s\",%zu,", first ? "\n" : ",\n", rc_diag_finding_name(x->kind),
			x->dev);
		first = false;
		js_str(f, x->port, sizeof(x->port));
		fputc(',', f);
		js_str(f, x->message, sizeof(x->message));
		fputc(']', f);
	}
}

void rc_report_diag_html(FILE *f, const struct rc_diag *d, const struct rc_fleet *fl, time_t when)
{
	const struct rc_inventory *inv = d->inv;
	int *dev_rank = calloc(inv->n_devices ? inv->n_devices : 1, sizeof(*dev_rank));
	int *link_rank = calloc(inv->n_links ? inv->n_links : 1, sizeof(*link_rank));

	if (!dev_rank || !link_rank)
		goto out;
	if (d->fab)
		class_ranks(d, dev_rank, link_rank);
	for (size_t i = 0; i < d->n_paths; i++) {
		const struct rc_diag_path *p = &d->paths[i];

		for (size_t k = 0; k < p->p->n; k++) {
			const struct rc_trace_hop *h = &p->p->h[k];
			int rk = role_rank(p->h[k].role);

			if (rk > dev_rank[h->dev])
				dev_rank[h->dev] = rk;
			if (h->link_in < inv->n_links && rk > link_rank[h->link_in])
				link_rank[h->link_in] = rk;
		}
	}
	fputs(page_head, f);
	fprintf(f, "{\"kind\":\"diagnose\",\"when\":%lld,\"np\":%zu,\"d\":[", (long long)when,
		d->fab ? d->fab->n_paths : d->n_paths);
	for (size_t i = 0; i < inv->n_devices; i++)
		device_entry(f, &inv->devices[i], rank_name(dev_rank[i]), fleet_error(fl, i), 0,
			     i == 0);
	fputs("],\n\"x\":[", f);
	if (d->fab)
		port_entries(f, d, dev_rank);
	else
		hop_entries(f, d, dev_rank);
	fputs("],\n\"l\":[", f);
	for (size_t i = 0; i < inv->n_links; i++)
		link_entry(f, inv, i, rank_name(link_rank[i]), i == 0);
	fputs("],\n\"fi\":[", f);
	diag_findings(f, d);
	fputs("],\"f\":[]}", f);
	fputs(page_tail, f);
out:
	free(dev_rank);
	free(link_rank);
}
