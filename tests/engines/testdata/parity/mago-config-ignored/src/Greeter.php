<?php

namespace App;

final class Greeter
{
	public function greet(
		string $name,
		string $greeting = 'Hello',
	): string {
		return sprintf('%s, %s!', $greeting, $name);
	}
}
