// Package gradebook writes what tensornb grade found in the forms schools
// take grades in: a gradebook CSV that Canvas and Moodle import
// (WriteCSV), Gradescope's autograder results (Gradescope), and the
// verdict of a GitHub Classroom autograding step (Classroom).
package gradebook
