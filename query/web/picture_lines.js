// The lines of the picture of the multiverse (picture.js), drawn in SVG under and over its boards
// where the server's scene puts them (query/picture_scene.h), in the scene's pixels: the branch
// lines from the board each timeline left, under the boards; the last action's moves (blue) and
// the checks (red) as arrows over them. The caller sizes the two SVGs and sets their viewBox.
//
// fived.pictureLines(under, over) (two empty SVG elements, which it fills) returns {draw}:
//   draw(model, originY) makes them show the lines of `model` (a picture of /api/game/ID or
//     /api/position: its branches, moves and checks as path data, its square's size for the
//     widths), with heights measured from the scene's `originY` (0 when not given), changing
//     only the paths that changed since the last call.
// A step that adds or removes timelines over the origin moves every row of the scene; measured
// from a row that stays (picture.js's anchor), the branch lines it keeps keep their path data,
// and the browser neither parses nor paints them again.
'use strict';

fived.pictureLines = (under, over) => {
  const {svg, fill} = fived;

  // The scene's lines: branches under the boards, the moves and checks over them. Each set is a
  // group that holds what its paths share (colour, width, arrowhead: SVG's presentation
  // attributes are inherited), so that a path is only its class and its "d"; a step rewrites
  // the "d" of the paths it keeps, rather than making every path again (a step of the
  // 120-timeline game changes the paths of a hundred branch lines and fifty arrows).
  const branchGroup = svg('g', {fill: 'none', stroke: '#8a94a6', 'stroke-linecap': 'round'});
  const lineGroup = (colour, head) => svg('g', {
    fill: 'none', stroke: colour, 'stroke-opacity': 0.85, 'stroke-linecap': 'round',
    'marker-end': `url(#${head})`
  });
  const arrowGroup = lineGroup('#1f6fd1', 'mv-arrowhead');
  const checkGroup = lineGroup('#e0162b', 'mv-checkhead');
  const marker = (id, colour) => svg(
      'marker', {
        id, viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 4, markerHeight: 4,
        orient: 'auto'
      },
      svg('path', {d: 'M0,0L10,5L0,10z', fill: colour}));
  fill(under, branchGroup);
  fill(
      over, svg('defs', {}, marker('mv-arrowhead', '#1f6fd1'), marker('mv-checkhead', '#e0162b')),
      arrowGroup, checkGroup);
  // Makes `group` hold one path of class `name` per path data of `paths`, in order.
  function setPaths(group, name, paths) {
    let path = group.firstChild;
    for (const d of paths) {
      if (!path) {
        path = svg('path', {class: name});
        group.appendChild(path);
      }
      if (path.getAttribute('d') !== d) path.setAttribute('d', d);
      path = path.nextSibling;
    }
    while (path) {
      const next = path.nextSibling;
      path.remove();
      path = next;
    }
  }
  // Path data of the scene (pairs of numbers "x y" after each command letter, as
  // query/picture_scene.cc writes them) with heights measured from `originY`.
  function fromOrigin(paths, originY) {
    if (!originY) return paths;
    return paths.map((d) => d.replace(/(-?[\d.]+) (-?[\d.]+)/g, (pair, x, y) =>
        `${x} ${Number((Number(y) - originY).toFixed(2))}`));
  }
  function draw(model, originY = 0) {
    const width = String(Math.max(3, model.square / 3));
    if (branchGroup.getAttribute('stroke-width') !== width) {
      branchGroup.setAttribute('stroke-width', width);
    }
    const stroke = String(Math.max(2, model.square / 6));
    for (const group of [arrowGroup, checkGroup]) {
      if (group.getAttribute('stroke-width') !== stroke) group.setAttribute('stroke-width', stroke);
    }
    setPaths(branchGroup, 'branch', fromOrigin(model.branches, originY));
    setPaths(arrowGroup, 'arrow', fromOrigin(model.moves, originY));
    setPaths(checkGroup, 'check', fromOrigin(model.checks, originY));
  }

  return {draw};
};
