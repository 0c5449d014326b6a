// Small helpers of the table phone's modules: building elements, words with placeholders,
// points as the paper sheet writes them.

export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (name) {
    const value = attrs[name];
    if (name === "text") node.textContent = value;
    else if (name === "on") Object.keys(value).forEach(function (ev) { node.addEventListener(ev, value[ev]); });
    else if (value === true) node.setAttribute(name, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, value);
  });
  (children || []).forEach(function (child) {
    if (child) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  });
  return node;
}

export function fmt(text, values) {
  return text.replace(/%\((\w+)\)s/g, function (_m, name) { return String(values[name]); });
}

// the page's language groups the digits as the server does (1.220 in German, 1,220 in English)
const SEPARATOR = document.documentElement.lang === "en" ? "," : ".";

export function points(value) {
  if (value === null || value === undefined) return "";
  const text = Math.abs(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, SEPARATOR);
  return value < 0 ? "−" + text : text;
}

export function shown(value) {
  return value === null || value === undefined || value === "" ? "–" : String(value);
}
