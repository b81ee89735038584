#!/bin/sh
name=$1
echo $name
