"""A garden centre, written with FastMCP 4, for examples/gateway: its tools ask with ctx.elicit.

FastMCP's ctx.elicit asks with a server-to-client request (elicitation/create), which only the 2025
handshake revisions have. `parley gateway` runs this server over stdio and relays its questions to
hosts of either era: a 2026-07-28 host gets them as InputRequiredResult rounds.
Usage: python3 server.py   (over stdio; the gateway starts it)
"""

from dataclasses import dataclass
from typing import Literal

from fastmcp import Context, FastMCP

mcp = FastMCP("garden-centre")


@dataclass
class SeedOrder:
    variety: Literal["tomato", "basil", "sunflower"]
    packets: int
    organic: bool


@mcp.tool
async def order_seeds(ctx: Context) -> str:
    """Orders seed packets: asks which variety, how many packets, and whether organic."""
    answer = await ctx.elicit("Which seeds, and how many packets?", SeedOrder)
    if answer.action != "accept":
        return f"No seeds ordered ({answer.action})."
    order = answer.data
    if not 1 <= order.packets <= 20:
        return f"No seeds ordered: {order.packets} packets is not between 1 and 20."
    kind = "organic " if order.organic else ""
    return f"Ordered {order.packets} packet(s) of {kind}{order.variety} seeds."


@mcp.tool
async def plan_watering(ctx: Context) -> str:
    """Two questions in turn: which plant, then how often to water it."""
    plant = await ctx.elicit("Which plant needs a watering plan?", str)
    if plant.action != "accept":
        return f"No plan ({plant.action})."
    days = await ctx.elicit(f"Water the {plant.data} every how many days?", int)
    if days.action != "accept":
        return f"No plan ({days.action})."
    return f"Water the {plant.data} every {days.data} day(s)."


if __name__ == "__main__":
    mcp.run(show_banner=False)
