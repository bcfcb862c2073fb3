/*
 * The clocks panel (Laws 24-25): the live display (../clocks.js) and the clock rulings'
 * buttons, each enabled when its ruling applies to the clocks as last read.
 */
import { DraughtsClocks } from "../clocks.js";
import { $ } from "./page.js";
import { CLOCK_RULINGS, buildRulings, rulingDefinition } from "./rulings.js";
import { desk } from "./state.js";

export let clocks = null;

/* Starts the display and adds the clock rulings' buttons. */
export function setupClocks() {
  clocks = new DraughtsClocks($("clocks"));
  buildRulings($("clock-rulings"), CLOCK_RULINGS);
  clocks.onUpdate(renderClockButtons);
}

/* Each clock button is enabled when its ruling applies to the clocks as last read. */
function renderClockButtons(block) {
  var latest = clocks.state || desk.state || {};
  var status = block ? block.status : null;
  Array.prototype.forEach.call($("clock-rulings").querySelectorAll("button"), function (button) {
    var ruling = rulingDefinition(button.getAttribute("data-kind"));
    var applies = ruling.when === "adjustable" ? status !== null && status !== "stopped" : status === ruling.when;
    button.disabled = !applies || latest.status === "finished" || latest.can_write === false;
  });
}
