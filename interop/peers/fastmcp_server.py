"""FastMCP 4.0 server for the interop suite: the ways FastMCP users ask questions.

Usage: fastmcp_server.py stdio | fastmcp_server.py http PORT
Handshake era: ctx.elicit (FastMCP's own shapes: dataclasses, scalars, [choices], [[multi]]).
2026-07-28: the guard pattern (return InputRequiredResult, read ctx.input_responses), the only way
FastMCP asks on that revision.
"""

import asyncio
import json
import sys
from dataclasses import asdict, dataclass
from typing import Literal

import mcp.types as types
from fastmcp import Context, FastMCP

mcp = FastMCP("fastmcp-peer")


@dataclass
class Profile:
    name: str
    age: int
    height: float
    subscribed: bool
    size: Literal["s", "m", "l"]


@dataclass
class Defaults:
    name: str = "Ada"
    age: int = 36
    subscribed: bool = True


def outcome(result) -> str:
    if result.action != "accept":
        return result.action
    data = result.data
    if hasattr(data, "__dataclass_fields__"):
        data = asdict(data)
    return json.dumps(data, sort_keys=True)


@mcp.tool
async def profile(ctx: Context) -> str:
    """Every scalar field kind in one dataclass form."""
    return outcome(await ctx.elicit("Your profile", Profile))


@mcp.tool
async def pick_many(ctx: Context) -> str:
    """A multi-select in FastMCP's list-of-list shape."""
    return outcome(await ctx.elicit("Pick toppings", [["ham", "cheese", "olives"]]))


@mcp.tool
async def pick_one(ctx: Context) -> str:
    """A single-select in FastMCP's list shape."""
    return outcome(await ctx.elicit("Pick a size", ["s", "m", "l"]))


@mcp.tool
async def confirm(ctx: Context) -> str:
    """One yes/no question; reports accept, decline or cancel."""
    return outcome(await ctx.elicit("Go ahead?", bool))


@mcp.tool
async def two_steps(ctx: Context) -> str:
    """Two questions in sequence."""
    name = await ctx.elicit("Step 1: your name?", str)
    if name.action != "accept":
        return name.action
    color = await ctx.elicit("Step 2: favourite color?", str)
    if color.action != "accept":
        return color.action
    return f"{name.data} likes {color.data}"


@mcp.tool
async def with_defaults(ctx: Context) -> str:
    """A form whose every field has a default."""
    return outcome(await ctx.elicit("Confirm the defaults", Defaults))


@mcp.tool
async def tagged(tag: str, delay: float, ctx: Context) -> str:
    """Waits `delay` seconds, then asks a question that names `tag`."""
    await asyncio.sleep(delay)
    answer = await ctx.elicit(f"Question for {tag}", str)
    return f"{tag}: {answer.data if answer.action == 'accept' else answer.action}"


@mcp.tool
async def guard_name(ctx: Context) -> str | types.InputRequiredResult:
    """2026-07-28: asks with an InputRequiredResult, then greets."""
    responses = ctx.input_responses
    if not responses or "name" not in responses:
        request = types.ElicitRequest(
            params=types.ElicitRequestFormParams(
                message="What is your name?",
                requested_schema={
                    "type": "object",
                    "properties": {"name": {"type": "string", "title": "Name"}},
                    "required": ["name"],
                },
            )
        )
        return types.InputRequiredResult(input_requests={"name": request})
    answer = responses["name"]
    if answer.action != "accept":
        return answer.action
    return f"Hello, {answer.content['name']}!"


if __name__ == "__main__":
    if sys.argv[1] == "stdio":
        mcp.run(show_banner=False)
    else:
        mcp.run(transport="http", host="127.0.0.1", port=int(sys.argv[2]), show_banner=False)
