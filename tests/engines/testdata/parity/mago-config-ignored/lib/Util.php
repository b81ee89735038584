<?php

namespace App;

function clamp(int $value, int $low, int $high): int
{
	return max($low, min($high, $value));
}
