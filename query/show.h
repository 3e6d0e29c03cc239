// The show command of 5d-query and of the server's /api/game/ID: one stored game, its headers
// and moves, and the position after one of its actions as a picture (text, SVG or the pages'
// JSON), or the game as 5dpgn or Verbose Matrix Notation. Its parameters are read as the request
// layer's (query/request.h) are.
#ifndef FIVED_QUERY_SHOW_H_
#define FIVED_QUERY_SHOW_H_

#include <string>
#include <vector>

#include "core/position.h"
#include "query/json.h"
#include "query/picture.h"
#include "query/request.h"
#include "query/store.h"

namespace fived {

struct ShowAnswer {
  GameRow game;
  GameTexts texts;
  // With "format" table or json, the position after an action (with 5dpgn nothing is replayed,
  // with vmn the whole game is, into `vmn` below):
  int action = 0;  // the position is the state after this action
  Position position;
  std::vector<Move> last_moves;                // the moves of that action (none after action 0)
  OutputFormat format = OutputFormat::kTable;  // table, json, 5dpgn or vmn
  TextPictureOptions picture;                  // "columns", "unicode" and the boards of "mark"
  bool coordinates = false;                    // "coordinates": file and rank labels in the SVG
  std::string vmn;  // with "format" vmn (and nothing else): the game as core/vmn_writer.h writes it
};
// show on `store` (CheckRequest included): the game of the one argument, read; with "format"
// table or json, replayed to the position after "action". Not thread-safe, as the store is not.
// "mark" (repeatable) names a board to point out in the picture as "L:T:c": the timeline as the
// notation writes it, the turn, w or b ("+1:5:b", as find's pattern answers name boards). A mark
// naming a board the position does not have is no error (the picture passes it over), so that a
// page can keep the board a search found marked while stepping through the game. Fails with
// kNotFound when there is no such game, kDatabase when the game no longer replays.
Result<ShowAnswer> RunShow(GameStore& store, const Request& request);

// show's text: the game's players, ending, headers, moves and a picture after the action.
std::string ShowText(const ShowAnswer& answer);
// show's SVG (--svg): the position after the action as query/picture.h SvgPicture draws it, the
// action's moves as arrows, with the answer's columns, marks and coordinates, titled "Game ID
// after action N". The server's /api/picture of the same position with that title is the same
// document (RunPicture in query/request.h).
std::string ShowSvg(const ShowAnswer& answer);
// show's JSON: the object find writes for the game (query/find.h GameJson), in a database made
// with 5d-index --tactics its "mates" (query/find.h MatesJson), then "moves" (the
// canonical actions, an array of arrays of moves) and "position": {"action", "to_move" ("white"
// or "black": the side whose action comes next; actions alternate, so this also says who
// played each one), "fen" (the state as 5DFEN boards), "last_moves" (that action's moves),
// "picture" (the scene of SvgPicture as the explorer's pages draw it: query/picture_scene.h
// PictureJson)}.
Result<Json> ShowJson(GameStore& store, const ShowAnswer& answer);
// show with "format" 5dpgn: the game as find --format 5dpgn writes it (its original text,
// standing alone: query/export.h). Fails when the record cannot be read.
Result<std::string> ShowPgn(GameStore& store, const ShowAnswer& answer);

}  // namespace fived

#endif  // FIVED_QUERY_SHOW_H_
