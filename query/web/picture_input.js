// How people move the picture of the multiverse (picture.js): dragging with the mouse or one
// finger scrolls it, two fingers zoom about their middle, Ctrl + wheel zooms about the pointer,
// and once the frame has focus + and - zoom about the centre, 0 fits the whole picture, p goes
// back to the present and Shift + the arrow keys scroll (the plain arrows scroll the frame as
// any scrolling box does, except where the page gives them a meaning: a game steps with them).
//
// fived.pictureInput(frame, view) listens on `frame`, the picture's scrolling element, and on the
// window's resizing, and acts through `view`, the picture's own functions:
//   view.zoom()                  the zoom now
//   view.zoomAbout(value, x, y)  zooms to `value` about the point (x, y) of the frame (its
//                                centre when not given)
//   view.fitAll(), view.centreOnPresent()
//   view.applyView()             sets the scroll position a step asked for at its next frame
//                                now, before input reads or moves it
//   view.drawNear()              draws the boards scrolled into view at the next frame
//   view.resized()               places the picture again in the window's new size
'use strict';

fived.pictureInput = (frame, view) => {
  // Dragging with the mouse or one finger scrolls; two fingers zoom about their middle.
  const pointers = new Map();
  let pinch = null;  // the distance between two fingers down, when they last moved
  const fingersApart = () => {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  frame.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    pointers.set(event.pointerId, {x: event.clientX, y: event.clientY});
    // A pinch follows the fingers' distance from when the second one touches.
    pinch = pointers.size === 2 ? fingersApart() : null;
    frame.setPointerCapture(event.pointerId);
    frame.classList.add('dragging');
  });
  frame.addEventListener('pointermove', (event) => {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    view.applyView();
    const now = {x: event.clientX, y: event.clientY};
    if (pointers.size === 1) {
      frame.scrollLeft -= now.x - last.x;
      frame.scrollTop -= now.y - last.y;
    }
    pointers.set(event.pointerId, now);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const distance = fingersApart();
      const box = frame.getBoundingClientRect();
      const middle = {x: (a.x + b.x) / 2 - box.left, y: (a.y + b.y) / 2 - box.top};
      if (pinch) view.zoomAbout(view.zoom() * distance / pinch, middle.x, middle.y);
      pinch = distance;
    }
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    pinch = null;
    if (pointers.size === 0) frame.classList.remove('dragging');
  };
  // Boards scrolled into view are drawn in the next frame.
  frame.addEventListener('scroll', view.drawNear, {passive: true});
  frame.addEventListener('pointerup', release);
  frame.addEventListener('pointercancel', release);
  frame.addEventListener('wheel', (event) => {
    if (!event.ctrlKey) return;  // a plain wheel scrolls; Ctrl + wheel and pinches zoom
    event.preventDefault();
    const box = frame.getBoundingClientRect();
    view.zoomAbout(
        view.zoom() * Math.exp(-event.deltaY / 300), event.clientX - box.left,
        event.clientY - box.top);
  }, {passive: false});
  frame.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    view.applyView();
    const step = () => ({x: frame.clientWidth / 4, y: frame.clientHeight / 4});
    const zoomIn = () => view.zoomAbout(view.zoom() * 1.25);
    const actions = {
      '+': zoomIn, '=': zoomIn, '-': () => view.zoomAbout(view.zoom() / 1.25), '0': view.fitAll,
      'p': view.centreOnPresent
    };
    // Shift + arrows move the view everywhere; the plain arrows scroll the frame as any
    // scrolling box does, except where the page gives them a meaning (a game steps with them).
    if (event.shiftKey) {
      Object.assign(actions, {
        ArrowLeft: () => frame.scrollBy(-step().x, 0),
        ArrowRight: () => frame.scrollBy(step().x, 0),
        ArrowUp: () => frame.scrollBy(0, -step().y),
        ArrowDown: () => frame.scrollBy(0, step().y)
      });
    }
    if (!(event.key in actions)) return;
    event.preventDefault();
    actions[event.key]();
  });
  window.addEventListener('resize', view.resized);
};
