/*
 * Upcoming, live now, past: decided with the reader's clock, when the page is read.
 * A classic script inlined after the events it sorts (it runs from file:// too, needs
 * nothing else). The page is built without it in mind: everything it shows is true
 * without JavaScript, and this only moves and reveals. Same rule as eventPhase() in
 * src/lib/build-day.ts: upcoming before the start, live until the end, then past; an
 * event without an end after its start ends when it starts.
 *
 * [data-event]                  one event; its <time data-event-start|data-event-end datetime>
 * [data-event-when="live ..."]  inside it: shown only in those phases
 * [data-event-board="split"]    groups [data-event-group=live|upcoming|past] of li[data-event-item]
 *                               (past ones under year headings from data-year)
 * [data-event-board="ahead"]    one list: events that have ended are hidden
 * [data-event-empty]            in a group or board: shown when it lists nothing
 */
(function () {
  'use strict';
  var timer = 0;

  function instant(scope, attribute) {
    var time = scope.querySelector('time[' + attribute + ']');
    return time ? Date.parse(time.getAttribute('datetime')) : NaN;
  }

  function span(scope) {
    var start = instant(scope, 'data-event-start');
    var end = instant(scope, 'data-event-end');
    return { start: start, end: end > start ? end : start };
  }

  function phase(s, now) {
    return now < s.start ? 'upcoming' : now < s.end ? 'live' : 'past';
  }

  function itemOf(li) {
    var scope = li.querySelector('[data-event]');
    return { li: li, span: span(scope), phase: scope.getAttribute('data-event-phase') };
  }

  function byStart(a, b) { return a.span.start - b.span.start; }

  // An event's title is an h3 under a group's h2, an h4 under a year's h3.
  function setLevel(li, level) {
    var heading = li.querySelector('.event__title');
    if (!heading || heading.tagName === 'H' + level) return;
    var replacement = document.createElement('h' + level);
    for (var i = 0; i < heading.attributes.length; i++) replacement.setAttribute(heading.attributes[i].name, heading.attributes[i].value);
    while (heading.firstChild) replacement.appendChild(heading.firstChild);
    heading.parentNode.replaceChild(replacement, heading);
  }

  function fill(list, items, level) {
    for (var i = 0; i < items.length; i++) {
      setLevel(items[i].li, level);
      list.appendChild(items[i].li);
    }
  }

  function showEmpty(container, empty) {
    var note = container.querySelector('[data-event-empty]');
    if (note) note.hidden = !empty;
  }

  function arrangeSplit(board) {
    var items = Array.prototype.map.call(board.querySelectorAll('li[data-event-item]'), itemOf);
    var misplaced = items.some(function (item) {
      return item.li.closest('[data-event-group]').getAttribute('data-event-group') !== item.phase;
    });
    if (!misplaced) return;
    var groups = {};
    ['live', 'upcoming', 'past'].forEach(function (name) {
      groups[name] = {
        element: board.querySelector('[data-event-group="' + name + '"]'),
        items: items.filter(function (item) { return item.phase === name; }),
      };
    });
    ['live', 'upcoming'].forEach(function (name) {
      var group = groups[name];
      fill(group.element.querySelector('ul[data-event-list]'), group.items.sort(byStart), 3);
      showEmpty(group.element, group.items.length === 0);
      if (name === 'live') group.element.hidden = group.items.length === 0;
    });
    var past = groups.past;
    var years = past.element.querySelector('[data-event-years]');
    while (years.firstChild) years.removeChild(years.firstChild);
    var list = null;
    var year = null;
    past.items.sort(byStart).reverse().forEach(function (item) {
      var itemYear = item.li.getAttribute('data-year');
      if (itemYear !== year) {
        year = itemYear;
        var heading = document.createElement('h3');
        heading.className = 'year-heading';
        heading.textContent = year;
        list = document.createElement('ul');
        list.className = 'event-list';
        years.appendChild(heading);
        years.appendChild(list);
      }
      fill(list, [item], 4);
    });
    past.element.hidden = past.items.length === 0;
  }

  function arrangeAhead(board) {
    var shown = 0;
    Array.prototype.forEach.call(board.querySelectorAll('li[data-event-item]'), function (li) {
      li.hidden = itemOf(li).phase === 'past';
      if (!li.hidden) shown++;
    });
    showEmpty(board, shown === 0);
  }

  function update() {
    clearTimeout(timer);
    var now = Date.now();
    var next = Infinity;
    Array.prototype.forEach.call(document.querySelectorAll('[data-event]'), function (scope) {
      var s = span(scope);
      if (isNaN(s.start)) return;
      var p = phase(s, now);
      scope.setAttribute('data-event-phase', p);
      Array.prototype.forEach.call(scope.querySelectorAll('[data-event-when]'), function (el) {
        el.hidden = (' ' + el.getAttribute('data-event-when') + ' ').indexOf(' ' + p + ' ') < 0;
      });
      if (p === 'upcoming') next = Math.min(next, s.start);
      else if (p === 'live') next = Math.min(next, s.end);
    });
    Array.prototype.forEach.call(document.querySelectorAll('[data-event-board]'), function (board) {
      if (board.getAttribute('data-event-board') === 'split') arrangeSplit(board);
      else arrangeAhead(board);
    });
    // Again when the next event starts or ends (and at least hourly: timers sleep with the laptop).
    if (next < Infinity) timer = setTimeout(update, Math.min(next - now + 250, 3600000));
  }

  update();
  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'visible') update();
  });
  window.addEventListener('pageshow', update);
})();
