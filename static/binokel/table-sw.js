// The tables' service worker (only where browsers allow one: https, or localhost): a table's
// page opens again without a connection, from the last copy; the phone's own store still
// holds every game that has not reached the server. Pages: network first; static files:
// cache first. Nothing else is touched (the JSON requests always go to the network).
"use strict";
var CACHE = "binokel-table-v1";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  var isPage = /^\/tisch\/[A-Za-z0-9_-]+\/$/.test(url.pathname);
  var isStatic = url.pathname.indexOf("/static/binokel/table") === 0;
  if (!isPage && !isStatic) return;
  if (isStatic) {
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (hit) {
        var fresh = fetch(request).then(function (response) {
          if (response.ok) cache.put(request, response.clone());
          return response;
        });
        return hit || fresh;
      });
    }));
    return;
  }
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(request); }).then(function (hit) {
      return hit || Response.error();
    });
  }));
});
